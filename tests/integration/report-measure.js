// Added by tests/integration/report.t to a copy of a report (the report
// itself has no script): where the browser laid out each chart, and
// whether the page is wider than the window.
addEventListener("load", function () {
	var o = [];

	document.querySelectorAll("svg.chart").forEach(function (s) {
		var r = s.getBoundingClientRect();

		o.push("chart " + s.id + " " + Math.round(r.width) + " " +
		       Math.round(r.height) + " " +
		       s.querySelectorAll("rect.bar, path").length);
	});
	// each table's box: "box ID-or-caption SCROLLWIDTH CLIENTWIDTH MAIN",
	// MAIN 1 unless it is folded in a <details> (every key) or a detail
	// beside the verdicts (the kernel view): those may scroll
	document.querySelectorAll("div.scroll").forEach(function (d, i) {
		var t = d.querySelector("table"), c = t && t.querySelector("caption");
		var name = (t && t.id) || (c && c.textContent) || ("box-" + i);

		o.push("box " + name.replace(/\s+/g, "_").slice(0, 40) + " " +
		       d.scrollWidth + " " + d.clientWidth + " " +
		       (d.closest("details") || d.classList.contains("detail") ? 0 : 1));
	});
	o.push("scroll " + document.documentElement.scrollWidth + " " + innerWidth);
	var p = document.createElement("pre");
	p.id = "pp-measure";
	p.textContent = o.join("\n");
	document.body.appendChild(p);
});
