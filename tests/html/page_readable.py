# Whether a page reads well in Chromium at a given window width (1280 px
# unless --width), with the window's scroll bar: nothing is wider than the
# window (the page, or any box that scrolls on its own), every text of every
# inline <svg> is drawn at least 10 px high, lies inside its picture (not cut
# at its edge) and overlaps no other text of it.
#
# A copy of the page without its Content-Security-Policy gets a script that
# measures the laid-out page and writes the numbers into it; Chromium's
# --dump-dom returns them. Prints a line per problem ("PROBLEM: ...", the
# first MAX_SHOWN) and a line per picture (its id, shown and natural width,
# smallest text), and exits 1 when there is a problem.
#
# Usage: page_readable.py [--width PX] PAGE.html CHROMIUM [CHROMIUM_OPTIONS...]
#   (CHROMIUM_OPTIONS: --headless, --no-sandbox, --user-data-dir and the like;
#   the window size and --dump-dom are added here)
import html
import json
import os
import re
import subprocess
import sys
import tempfile

MIN_TEXT_PX = 10.0
MAX_SHOWN = 12  # problems printed; a picture drawn too small has one per text

MEASURE = r"""
(function () {
  const root = document.documentElement;
  const out = { scroll_width: root.scrollWidth, client_width: root.clientWidth, boxes: [], svgs: [] };
  for (const e of document.querySelectorAll("body *")) {
    if (e.closest("svg")) continue;
    const overflow = getComputedStyle(e).overflowX;
    if (overflow !== "visible" && e.scrollWidth > e.clientWidth + 1)
      out.boxes.push({ what: e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
                             (typeof e.className === "string" && e.className ? "." + e.className : ""),
                       scroll_width: e.scrollWidth, client_width: e.clientWidth });
  }
  const svgs = Array.from(document.querySelectorAll("svg")).filter(s => !s.parentElement.closest("svg"));
  svgs.forEach((svg, n) => {
    const holder = svg.closest("figure[id], section[id]");
    const box = svg.getBoundingClientRect();
    const texts = [];
    for (const t of svg.querySelectorAll("text")) {
      const words = (t.textContent || "").trim();
      const r = t.getBoundingClientRect();
      if (!words || r.width === 0) continue;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      texts.push({ words, px, left: r.left, right: r.right, top: r.top, bottom: r.bottom });
    }
    out.svgs.push({ name: (holder ? holder.id : "svg") + " (picture " + (n + 1) + ")",
                    shown: box.width, natural: svg.getAttribute("width"),
                    left: box.left, right: box.right, top: box.top, bottom: box.bottom, texts });
  });
  const pre = document.createElement("pre");
  pre.id = "page-readable-measures";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
"""


def measure(page, width, chromium):
    text = open(page, encoding="utf-8").read()
    text = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text)
    if "</body>" not in text:  # a picture (an .svg file): alone on a page, at its own size
        text = "<!DOCTYPE html><html><body>" + text[text.find("<svg"):] + "</body></html>"
    text = text.replace("</body>", "<script>" + MEASURE + "</script></body>")
    with tempfile.NamedTemporaryFile("w", suffix=".html", dir=os.path.dirname(os.path.abspath(page)),
                                     delete=False, encoding="utf-8") as copy:
        copy.write(text)
    try:
        dom = subprocess.run(chromium + [f"--window-size={width},2000", "--dump-dom", "file://" + copy.name],
                             capture_output=True, text=True, timeout=180).stdout
    finally:
        os.unlink(copy.name)
    found = re.search(r'<pre id="page-readable-measures">(.*?)</pre>', dom, re.S)
    if not found:
        sys.exit(f"PROBLEM: {page}: Chromium returned no measures")
    return json.loads(html.unescape(found.group(1)))


def overlaps(a, b):
    return a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1 and a["top"] < b["bottom"] - 1 and \
        b["top"] < a["bottom"] - 1


def problems(m, width):
    found = []
    if m["scroll_width"] > m["client_width"]:
        found.append(f"the page is {m['scroll_width']} px wide in a {width} px window "
                     f"({m['client_width']} px beside the scroll bar)")
    for b in m["boxes"]:
        found.append(f"{b['what']} needs {b['scroll_width']} px and has {b['client_width']}: it scrolls sideways")
    for s in m["svgs"]:
        texts = s["texts"]
        for t in texts:
            if t["px"] < MIN_TEXT_PX - 0.05:
                found.append(f"{s['name']}: text {t['px']:.1f} px high: {t['words'][:70]!r}")
            if t["left"] < s["left"] - 1 or t["right"] > s["right"] + 1 or t["top"] < s["top"] - 1 or \
                    t["bottom"] > s["bottom"] + 1:
                found.append(f"{s['name']}: text cut at the picture's edge: {t['words'][:70]!r}")
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                if overlaps(a, b):
                    found.append(f"{s['name']}: texts overlap: {a['words'][:50]!r} and {b['words'][:50]!r}")
    return found


def main():
    args = sys.argv[1:]
    width = 1280
    if args[:1] == ["--width"]:
        width, args = int(args[1]), args[2:]
    page, chromium = args[0], args[1:]
    m = measure(page, width, chromium)
    for s in m["svgs"]:
        smallest = min((t["px"] for t in s["texts"]), default=0)
        print(f"# {s['name']}: shown {s['shown']:.0f} px wide (drawn {s['natural']}), smallest text {smallest:.1f} px")
    found = problems(m, width)
    for p in found[:MAX_SHOWN]:
        print(f"PROBLEM: {os.path.basename(page)}: {p}")
    if len(found) > MAX_SHOWN:
        print(f"PROBLEM: {os.path.basename(page)}: and {len(found) - MAX_SHOWN} more")
    sys.exit(1 if found else 0)


main()
