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
	o.push("scroll " + document.documentElement.scrollWidth + " " + innerWidth);
	var p = document.createElement("pre");
	p.id = "pp-measure";
	p.textContent = o.join("\n");
	document.body.appendChild(p);
});
