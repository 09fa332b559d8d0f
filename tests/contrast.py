"""A contrast check of computed colours in a real page: every visible text against the colour
it is drawn on (the backgrounds behind it blended), WCAG AA (4.5:1, 3:1 for large text)."""

#: run in the page; returns the texts below AA as "text: ratio (colour on background)"
CONTRAST_FAILURES = """() => {
  const parse = (value) => {
    const found = value.match(/rgba?\\(([^)]+)\\)/);
    if (!found) return null;
    const parts = found[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
  };
  const channel = (v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  const over = (top, base) => ({
    r: top.r * top.a + base.r * (1 - top.a),
    g: top.g * top.a + base.g * (1 - top.a),
    b: top.b * top.a + base.b * (1 - top.a),
    a: 1,
  });
  const canvas = () => {
    const html = parse(getComputedStyle(document.documentElement).backgroundColor);
    if (html && html.a > 0) return html;
    const dark = matchMedia("(prefers-color-scheme: dark)").matches;
    return dark ? { r: 18, g: 18, b: 18, a: 1 } : { r: 255, g: 255, b: 255, a: 1 };
  };
  const background = (node) => {
    const layers = [];
    for (let at = node; at; at = at.parentElement) {
      const colour = parse(getComputedStyle(at).backgroundColor);
      if (colour && colour.a > 0) {
        layers.push(colour);
        if (colour.a >= 1) break;
      }
    }
    return layers.reverse().reduce((base, layer) => over(layer, base), canvas());
  };
  const failures = [];
  for (const node of document.querySelectorAll("body *")) {
    const texts = Array.from(node.childNodes)
      .filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (!texts.length || node.closest("svg, [disabled], [hidden], .visually-hidden")) continue;
    const style = getComputedStyle(node);
    if (style.visibility === "hidden" || !node.getClientRects().length) continue;
    const box = node.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    const back = background(node);
    const fore = over(parse(style.color), back);
    const [light, dark] = [luminance(fore), luminance(back)].sort((a, b) => b - a);
    const ratio = (light + 0.05) / (dark + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (Number(style.fontWeight) >= 700 && size >= 18.66);
    if (ratio < (large ? 3 : 4.5) - 0.01) {
      const text = texts[0].textContent.trim().slice(0, 40);
      failures.push(`${text}: ${ratio.toFixed(2)} (${style.color} on ${JSON.stringify(back)})`);
    }
  }
  return failures;
}"""
