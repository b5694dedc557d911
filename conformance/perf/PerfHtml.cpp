#include "conformance/perf/PerfHtml.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "conformance/HtmlParts.h"
#include "conformance/JsonFields.h"

namespace tegula::conformance {
namespace {

using html::esc;
using html::text;

std::string fmt(double v, const char* spec = "%.4g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, spec, v);
  return buf;
}

/// A point of the roofline: a measured figure that does arithmetic and moves bytes.
struct Point {
  std::string name;
  double intensity = 0;  ///< FLOP per byte
  double tflops = 0;     ///< achieved
};

/// Log-log roofline of one device: the declared memory roof up to the highest declared
/// compute peak among its figures, and each measured figure with FLOPs and bytes at its
/// arithmetic intensity. Plain SVG, no script: the page stays one offline file.
std::string roofline_svg(const std::string& device, const std::vector<Point>& points, double memory_gbps, double compute_tflops) {
  const double w = 640, h = 360, left = 60, bottom = 40, top = 10, right = 10;
  const double x_lo = 0.01, x_hi = 10000;
  double y_hi = std::max(compute_tflops, 1.0) * 2, y_lo = y_hi / 1e6;
  for (const Point& p : points) y_hi = std::max(y_hi, p.tflops * 2);
  auto X = [&](double v) { return left + (std::log10(std::clamp(v, x_lo, x_hi)) - std::log10(x_lo)) / (std::log10(x_hi) - std::log10(x_lo)) * (w - left - right); };
  auto Y = [&](double v) { return h - bottom - (std::log10(std::clamp(v, y_lo, y_hi)) - std::log10(y_lo)) / (std::log10(y_hi) - std::log10(y_lo)) * (h - bottom - top); };
  std::string s = "<svg class=\"roofline\" role=\"img\" width=\"" + fmt(w) + "\" height=\"" + fmt(h) + "\" viewBox=\"0 0 " + fmt(w) + " " +
                  fmt(h) + "\" aria-label=\"roofline of " + esc(device) + "\">\n";
  s += "<rect x=\"" + fmt(left) + "\" y=\"" + fmt(top) + "\" width=\"" + fmt(w - left - right) + "\" height=\"" + fmt(h - top - bottom) +
       "\" fill=\"none\" stroke=\"#888\"/>\n";
  for (double v = x_lo; v <= x_hi * 1.01; v *= 10)
    s += "<text x=\"" + fmt(X(v)) + "\" y=\"" + fmt(h - bottom + 15) + "\" font-size=\"10\" text-anchor=\"middle\">" + fmt(v, "%g") + "</text>\n";
  for (double v = y_hi; v >= y_lo * 0.99; v /= 10)
    s += "<text x=\"" + fmt(left - 4) + "\" y=\"" + fmt(Y(v) + 3) + "\" font-size=\"10\" text-anchor=\"end\">" + fmt(v, "%.2g") + "</text>\n";
  s += "<text x=\"" + fmt((left + w) / 2) + "\" y=\"" + fmt(h - 5) + "\" font-size=\"11\" text-anchor=\"middle\">FLOP per byte</text>\n";
  s += "<text x=\"12\" y=\"" + fmt((top + h - bottom) / 2) + "\" font-size=\"11\" transform=\"rotate(-90 12 " + fmt((top + h - bottom) / 2) +
       ")\" text-anchor=\"middle\">TFLOP/s</text>\n";
  if (memory_gbps > 0 && compute_tflops > 0) {
    double ridge = compute_tflops * 1e3 / memory_gbps;  // FLOP per byte where the roofs meet
    double x0 = x_lo, y0 = x0 * memory_gbps / 1e3;
    s += "<polyline class=\"roof\" fill=\"none\" stroke=\"#444\" stroke-width=\"2\" points=\"" + fmt(X(x0)) + "," + fmt(Y(y0)) + " " +
         fmt(X(ridge)) + "," + fmt(Y(compute_tflops)) + " " + fmt(X(x_hi)) + "," + fmt(Y(compute_tflops)) + "\"/>\n";
  }
  for (const Point& p : points) {
    s += "<circle class=\"point\" cx=\"" + fmt(X(p.intensity)) + "\" cy=\"" + fmt(Y(p.tflops)) + "\" r=\"4\" fill=\"#1565c0\"><title>" +
         esc(p.name) + ": " + fmt(p.tflops) + " TFLOP/s at " + fmt(p.intensity) + " FLOP/byte</title></circle>\n";
  }
  return s + "</svg>\n";
}

std::string figure_row(const Json& f) {
  std::string name = text(f, "name");
  std::string row = "<tr id=\"" + html::element_id("perf", name) + "\"><td>" + esc(name) + "</td><td>" + esc(text(f, "what")) + "</td>";
  if (const Json* reason = f.find("not_measured"))
    return row + "<td colspan=\"4\" class=\"not-measured\">not measured: " + esc(reason->is_string() ? reason->as_string() : "") + "</td></tr>\n";
  const Json* method = f.find("method");
  std::string value = fmt(number(f, "value")) + " " + text(f, "unit");
  const Json* percent = f.find("percent");
  std::string bar;
  if (percent && percent->is_number()) {
    double pct = percent->as_double();
    bar = "<div class=\"bar\" title=\"" + fmt(pct, "%.1f") + "% of the declared peak\"><span style=\"width:" + fmt(std::min(pct, 100.0), "%.1f") +
          "%\"" + (pct > 100 ? " class=\"over\"" : "") + "></span></div>" + fmt(pct, "%.1f") + "% of " + fmt(number(f, "peak")) + " " + text(f, "unit");
  } else {
    bar = "no declared peak: " + esc(text(f, "peak_basis"));
  }
  std::string spread = method ? fmt(number(*method, "spread_pct"), "%.2g") + "% over " + text(*method, "reps") + " x " +
                                    text(*method, "launches_per_rep") + " launches"
                              : "";
  return row + "<td>" + esc(value) + "</td><td>" + bar + "</td><td>" + esc(spread) + "</td><td title=\"" + esc(text(f, "peak_basis")) + "\">" +
         (method ? fmt(number(*method, "compile_ms"), "%.3g") + " ms" : "") + "</td></tr>\n";
}

/// The figures that moved beyond their measured spread since the baseline bundle.
std::string drift_html(const Json& drift) {
  const Json* figures = drift.find("figures");
  std::string h = "<p class=\"drift\">Against the baseline report (integrity " + esc(text(drift, "baseline_integrity")).substr(0, 16) +
                  "...): " + text(drift, "compared") + " figures compared, " +
                  std::to_string(figures && figures->is_array() ? figures->size() : 0) + " moved beyond their measured spread.</p>\n";
  if (!figures || !figures->is_array() || figures->size() == 0) return h;
  h += "<table class=\"drift\">\n<tr><th>figure</th><th>baseline</th><th>now</th><th>change</th><th>spread</th></tr>\n";
  for (const Json& e : figures->items())
    h += "<tr><td>" + esc(text(e, "name")) + "</td><td>" + fmt(number(e, "baseline_value")) + " " + esc(text(e, "unit")) + "</td><td>" +
         fmt(number(e, "value")) + " " + esc(text(e, "unit")) + "</td><td>" + fmt(number(e, "change_pct"), "%+.3g") + "%</td><td>" +
         fmt(number(e, "spread_pct"), "%.3g") + "%</td></tr>\n";
  return h + "</table>\n";
}

}  // namespace

std::string performance_html(const Json& report) {
  const Json* devices = report.find("devices");
  if (!devices || !devices->is_array()) return "";
  std::string h;
  for (const Json& d : devices->items()) {
    const Json* perf = d.find("performance");
    const Json* figures = perf ? perf->find("figures") : nullptr;
    if (!figures || !figures->is_array()) continue;
    std::string device = text(d, "name");
    std::vector<Point> points;
    double memory = 0, compute = 0;
    for (const Json& f : figures->items()) {
      if (!f.find("method")) continue;
      std::string bound = text(f, "bound");
      if (bound == "memory") memory = std::max(memory, number(f, "peak"));
      if (bound == "compute") compute = std::max(compute, number(f, "peak"));
      double flops = number(f, "flops"), bytes = number(f, "bytes"), ms = number(*f.find("method"), "median_ms");
      if (flops > 0 && bytes > 0 && ms > 0) points.push_back({text(f, "name"), flops / bytes, flops / (ms * 1e-3) / 1e12});
    }
    h += "<h3 id=\"" + html::element_id("perf-device", device) + "\">" + esc(device) + " (" + esc(text(*perf, "profile")) + " sizes)</h3>\n";
    h += roofline_svg(device, points, memory, compute);
    h += "<table class=\"perf\">\n<tr><th>figure</th><th>what</th><th>measured</th><th>against the declared peak</th>"
         "<th>spread</th><th>compile</th></tr>\n";
    for (const Json& f : figures->items()) h += figure_row(f);
    h += "</table>\n";
    if (const Json* drift = perf->find("drift")) h += drift_html(*drift);
  }
  if (h.empty()) return "";
  // The section's own style, here rather than in the page's: a report without figures renders
  // to the same bytes as before the section existed (verify compares the page).
  return "<style>.bar { display: inline-block; width: 120px; height: 10px; background: #eee; margin-right: 6px; "
         "vertical-align: middle; } .bar span { display: block; height: 10px; background: #1565c0; } .bar span.over { "
         "background: #c62828; } .not-measured { color: #777; } svg.roofline { display: block; margin: 8px 0; background: "
         "white; }</style>\n<h2 id=\"performance\">Performance</h2>\n<p>Measurements, never Pass or Fail: each figure against what the device's "
         "description declares (memory bandwidth, each matrix instruction's rate x compute units x clock). The roofline "
         "plots every measured figure that computes and moves bytes; bars past 100% mark a declared peak the device "
         "exceeds.</p>\n" +
         h;
}

}  // namespace tegula::conformance
