// SPDX-License-Identifier: GPL-2.0
/*
 * ESP states and policies over NETLINK_XFRM: see xfrm.h.  The messages
 * are those of iproute2's `ip xfrm`: struct xfrm_usersa_info with the
 * algorithms as attributes, struct xfrm_userpolicy_info with one
 * template, every lifetime limit infinite.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/xfrm.h>
#include <stdio.h>
#include <string.h>

#include "nl.h"
#include "util.h"
#include "xfrm.h"

#define KEY_MAX		64	/* bytes: the longest key with its salt */

const char *pp_xfrm_mode_name(enum pp_xfrm_mode m)
{
	return m == PP_XFRM_TUNNEL ? "tunnel" : "transport";
}

int pp_xfrm_open(int nsfd)
{
	return pp_nl_open(NETLINK_XFRM, nsfd);
}

static void lft_inf(struct xfrm_lifetime_cfg *l)
{
	l->soft_byte_limit = XFRM_INF;
	l->hard_byte_limit = XFRM_INF;
	l->soft_packet_limit = XFRM_INF;
	l->hard_packet_limit = XFRM_INF;
}

/* Key bytes of a benchmark: a pattern of the SPI, the same at both ends. */
static void key_fill(uint8_t *key, size_t len, uint32_t spi)
{
	size_t i;

	for (i = 0; i < len; i++)
		key[i] = (uint8_t)(spi * 131 + i * 29 + 7);
}

/* An algorithm attribute: head (its name and sizes) then the key. */
static void alg_attr(struct pp_nl_req *r, uint16_t type, const void *head, size_t hlen,
		     unsigned int bits, uint32_t spi)
{
	uint8_t buf[sizeof(struct xfrm_algo_auth) + KEY_MAX];
	size_t klen = (bits + 7) / 8;

	if (klen > KEY_MAX) {
		r->full = true;
		return;
	}
	memcpy(buf, head, hlen);
	key_fill(buf + hlen, klen, spi);
	pp_nl_attr(r, type, buf, hlen + klen);
}

static void add_algs(struct pp_nl_req *r, const struct pp_xfrm_sa *sa)
{
	const struct pp_xfrm_alg *a = sa->alg;

	if (a->aead) {
		struct xfrm_algo_aead h = { .alg_key_len = a->aead_bits,
					    .alg_icv_len = a->icv_bits };

		pp_strlcpy(h.alg_name, a->aead, sizeof(h.alg_name));
		alg_attr(r, XFRMA_ALG_AEAD, &h, sizeof(h), a->aead_bits, sa->spi);
		return;
	}
	if (a->enc) {
		struct xfrm_algo h = { .alg_key_len = a->enc_bits };

		pp_strlcpy(h.alg_name, a->enc, sizeof(h.alg_name));
		alg_attr(r, XFRMA_ALG_CRYPT, &h, sizeof(h), a->enc_bits, sa->spi);
	}
	if (a->auth) {
		struct xfrm_algo_auth h = { .alg_key_len = a->auth_bits,
					    .alg_trunc_len = a->trunc_bits };

		pp_strlcpy(h.alg_name, a->auth, sizeof(h.alg_name));
		alg_attr(r, XFRMA_ALG_AUTH_TRUNC, &h, sizeof(h), a->auth_bits, sa->spi + 1);
	}
}

int pp_xfrm_sa_add(int fd, const struct pp_xfrm_sa *sa, char *why, size_t whylen)
{
	struct xfrm_usersa_info info;
	struct pp_nl_req r;

	memset(&info, 0, sizeof(info));
	info.sel.family = AF_INET;
	info.id.daddr.a4 = sa->dst.s_addr;
	info.id.spi = htonl(sa->spi);
	info.id.proto = IPPROTO_ESP;
	info.saddr.a4 = sa->src.s_addr;
	lft_inf(&info.lft);
	info.reqid = sa->reqid;
	info.family = AF_INET;
	info.mode = sa->mode == PP_XFRM_TUNNEL ? XFRM_MODE_TUNNEL : XFRM_MODE_TRANSPORT;
	info.replay_window = 32;
	pp_nl_init(&r, XFRM_MSG_NEWSA, 0);
	pp_nl_put(&r, &info, sizeof(info));
	add_algs(&r, sa);
	return pp_nl_talk(fd, &r, NULL, 0, why, whylen);
}

int pp_xfrm_policy_add(int fd, const struct pp_xfrm_sa *sa, bool out, char *why,
		       size_t whylen)
{
	struct xfrm_userpolicy_info pol;
	struct xfrm_user_tmpl t;
	struct pp_nl_req r;

	memset(&pol, 0, sizeof(pol));
	pol.sel.daddr.a4 = sa->dst.s_addr;
	pol.sel.saddr.a4 = sa->src.s_addr;
	pol.sel.prefixlen_d = 32;
	pol.sel.prefixlen_s = 32;
	pol.sel.family = AF_INET;
	lft_inf(&pol.lft);
	pol.dir = out ? XFRM_POLICY_OUT : XFRM_POLICY_IN;
	pol.action = XFRM_POLICY_ALLOW;
	pol.share = XFRM_SHARE_ANY;
	memset(&t, 0, sizeof(t));
	t.id.daddr.a4 = sa->dst.s_addr;
	t.id.proto = IPPROTO_ESP;
	t.family = AF_INET;
	t.saddr.a4 = sa->src.s_addr;
	t.reqid = sa->reqid;
	t.mode = sa->mode == PP_XFRM_TUNNEL ? XFRM_MODE_TUNNEL : XFRM_MODE_TRANSPORT;
	t.aalgos = ~0u;
	t.ealgos = ~0u;
	t.calgos = ~0u;
	pp_nl_init(&r, XFRM_MSG_NEWPOLICY, 0);
	pp_nl_put(&r, &pol, sizeof(pol));
	pp_nl_attr(&r, XFRMA_TMPL, &t, sizeof(t));
	return pp_nl_talk(fd, &r, NULL, 0, why, whylen);
}

int pp_xfrm_sa_count(int fd, const struct pp_xfrm_sa *sa, uint64_t *bytes,
		     uint64_t *packets)
{
	char reply[PP_NL_BUF] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct xfrm_usersa_id id;
	struct xfrm_usersa_info info;
	struct pp_nl_req r;
	char why[128];
	int ret;

	memset(&id, 0, sizeof(id));
	id.daddr.a4 = sa->dst.s_addr;
	id.spi = htonl(sa->spi);
	id.family = AF_INET;
	id.proto = IPPROTO_ESP;
	pp_nl_init(&r, XFRM_MSG_GETSA, 0);
	pp_nl_put(&r, &id, sizeof(id));
	ret = pp_nl_talk(fd, &r, reply, sizeof(reply), why, sizeof(why));
	if (ret < 0)
		return ret;
	if ((size_t)ret < NLMSG_LENGTH(sizeof(info)))
		return -EPROTO;
	memcpy(&info, NLMSG_DATA((struct nlmsghdr *)reply), sizeof(info));
	*bytes = info.curlft.bytes;
	*packets = info.curlft.packets;
	return 0;
}

int pp_xfrm_flush(int fd, char *why, size_t whylen)
{
	struct xfrm_usersa_flush f = { .proto = IPPROTO_ESP };
	struct pp_nl_req r;
	int ret;

	pp_nl_init(&r, XFRM_MSG_FLUSHSA, 0);
	pp_nl_put(&r, &f, sizeof(f));
	ret = pp_nl_talk(fd, &r, NULL, 0, why, whylen);
	if (ret)
		return ret;
	pp_nl_init(&r, XFRM_MSG_FLUSHPOLICY, 0);
	return pp_nl_talk(fd, &r, NULL, 0, why, whylen);
}
