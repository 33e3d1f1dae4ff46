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
	// a flame graph's labels: "labels ID LABELS OVER", OVER those whose
	// text the browser drew beyond their frame's box
	document.querySelectorAll("svg.chart").forEach(function (s) {
		var n = 0, over = 0;

		s.querySelectorAll("g.frame").forEach(function (g) {
			var t = g.querySelector("text"), r = g.querySelector("rect"), b;

			if (!t)
				return;
			n++;
			b = t.getBBox();
			if (b.x < r.x.baseVal.value - 0.5 ||
			    b.x + b.width > r.x.baseVal.value + r.width.baseVal.value + 0.5)
				over++;
		});
		if (s.querySelector("g.frame"))
			o.push("labels " + s.id + " " + n + " " + over);
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
