/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IPsec ESP through the kernel's xfrm, over NETLINK_XFRM: security
 * associations and policies between two IPv4 hosts, transport or tunnel
 * mode, their counters, and a flush.  What `ip xfrm state add` and `ip
 * xfrm policy add` do, for a namespace of perfprobe's own (netns.h).
 */
#ifndef PP_XFRM_H
#define PP_XFRM_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An ESP transform: a cipher and an HMAC (authenc), or an AEAD. */
struct pp_xfrm_alg {
	const char *enc;		/* "cbc(aes)", or NULL with aead */
	unsigned int enc_bits;
	const char *auth;		/* "hmac(sha1)" */
	unsigned int auth_bits, trunc_bits;
	const char *aead;		/* "rfc4106(gcm(aes))" */
	unsigned int aead_bits, icv_bits;	/* the key with its 32-bit salt */
};

enum pp_xfrm_mode {
	PP_XFRM_TRANSPORT,
	PP_XFRM_TUNNEL,
};

/* One direction: src to dst, its SPI and request id. */
struct pp_xfrm_sa {
	struct in_addr src, dst;
	uint32_t spi;			/* host order */
	uint32_t reqid;
	enum pp_xfrm_mode mode;
	const struct pp_xfrm_alg *alg;
};

/* NETLINK_XFRM socket in the namespace nsfd: fd or -errno. */
int pp_xfrm_open(int nsfd);

/*
 * The SA, and the policy that sends src -> dst traffic through it (out)
 * or requires it of what arrives (in): 0 or -errno, why the kernel's
 * reason (-EPROTONOSUPPORT: no ESP; -ENOSYS: no such algorithm).
 */
int pp_xfrm_sa_add(int fd, const struct pp_xfrm_sa *sa, char *why, size_t whylen);
int pp_xfrm_policy_add(int fd, const struct pp_xfrm_sa *sa, bool out, char *why,
		       size_t whylen);

/* What the SA has processed: bytes and packets since it was added. */
int pp_xfrm_sa_count(int fd, const struct pp_xfrm_sa *sa, uint64_t *bytes,
		     uint64_t *packets);

/* Every ESP SA and every policy of the socket's namespace: 0 or -errno. */
int pp_xfrm_flush(int fd, char *why, size_t whylen);

/* "transport", "tunnel" */
const char *pp_xfrm_mode_name(enum pp_xfrm_mode m);

#endif /* PP_XFRM_H */
