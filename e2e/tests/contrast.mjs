// Text contrast as WCAG counts it, measured in the page: every element with its own text,
// against the first opaque background behind it. Returns the ones under the bar (4.5:1, or
// 3:1 for large text). Shared by the tests that check contrast.

/** @param {import('playwright-core').Page} page */
export function lowContrast(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a = '1'] = m[1].split(',').map((x) => x.trim());
      return [Number(r), Number(g), Number(b), Number(a)];
    };
    const lum = ([r, g, b]) => {
      const f = (v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el) => {
      for (let node = el; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.backgroundImage !== 'none' && !node.classList.contains('sq')) return null;
        const c = parse(style.backgroundColor);
        if (c && c[3] > 0.9) return c;
      }
      return [255, 255, 255, 1];
    };
    const failures = [];
    for (const el of document.querySelectorAll('body *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || el.closest('[hidden]')) continue;
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height) continue;
      if (el.closest('button:disabled, [aria-disabled=true], option')) continue;
      const bg = background(el);
      const raw = parse(style.color);
      if (!raw || !bg) continue;
      // A translucent colour shows as its blend with what is behind it.
      const fg = [0, 1, 2].map((i) => raw[i] * raw[3] + bg[i] * (1 - raw[3]));
      const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) {
        failures.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}:1`);
      }
    }
    return failures;
  });
}
