"""Tap targets measured in the page (issue 33, item 6; WCAG 2.2, 2.5.8 "Target Size (Minimum)").

`problems(page, scorer=False)` lists, in words, every visible interactive element (a, button,
input, select, textarea, summary, [role=button]) that is smaller than 24 x 24 CSS px without the
spacing exception, and the page's sideways scroll; with `scorer`, also every button and input of
the scorer's form (the entry page's #entry, the result and confirm forms) under 44 x 44.

What is measured, and why:
- an input inside a <label> is measured as its label's box: a tap on the label is a tap on it (a
  check box with its words, a call's chip whose input covers it);
- the spacing exception as WCAG words it: an undersized target passes when a 24 px circle on its
  centre meets no other target and no other undersized target's circle;
- a link inside a sentence is exempt when its height is the line's (WCAG's inline exception), as
  are the browser's own controls of a <details> summary's marker (part of the summary)."""

from __future__ import annotations

MEASURE = r"""
(scorer) => {
  const SELECTOR = "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]";
  const visible = (el) => {
    if (!el.getClientRects().length) return false;
    const st = getComputedStyle(el);
    return st.visibility !== "hidden" && st.display !== "none";
  };
  const boxOf = (el) => {
    const label = el.tagName === "INPUT" ? el.closest("label") : null;
    const r = (label || el).getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height };
  };
  const nameOf = (el) => {
    const id = el.id ? "#" + el.id : "";
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || el.name || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return el.tagName.toLowerCase() + id + (text ? ' "' + text + '"' : "");
  };
  // a link in running text, no taller than its line (WCAG's inline exception)
  const inline = (el, b) => {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
    const parent = el.parentElement;
    const words = Array.from(parent.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim().length > 1);
    const line = parseFloat(getComputedStyle(parent).lineHeight) || b.h;
    return words && b.h <= line + 1;
  };
  // inside a closed <details> only its summary can be tapped
  const folded = (el) => { const d = el.closest("details:not([open])"); return !!d && el !== d.querySelector(":scope > summary"); };
  const all = Array.from(document.querySelectorAll(SELECTOR)).filter(visible).filter((el) => !el.closest("[hidden]") && !folded(el));
  const targets = all.map((el) => ({ el, b: boxOf(el) })).filter((t) => t.b.w > 0 && t.b.h > 0);
  const small = (t) => t.b.w < 24 - 0.01 || t.b.h < 24 - 0.01;
  const centre = (b) => [b.x + b.w / 2, b.y + b.h / 2];
  const distToRect = (p, b) => {
    const dx = Math.max(b.x - p[0], 0, p[0] - (b.x + b.w)), dy = Math.max(b.y - p[1], 0, p[1] - (b.y + b.h));
    return Math.hypot(dx, dy);
  };
  const out = [];
  for (const t of targets) {
    if (!small(t) || inline(t.el, t.b)) continue;
    const c = centre(t.b);
    const crowded = targets.some((o) => {
      if (o === t || o.el.contains(t.el) || t.el.contains(o.el)) return false;
      return small(o) ? Math.hypot(c[0] - centre(o.b)[0], c[1] - centre(o.b)[1]) < 24 : distToRect(c, o.b) < 12;
    });
    if (crowded) out.push(nameOf(t.el) + ": " + Math.round(t.b.w) + " x " + Math.round(t.b.h) + " px, too close to another target");
  }
  if (scorer) {
    const forms = document.querySelectorAll("#entry, #table-result form, #code-form");
    forms.forEach((form) => {
      form.querySelectorAll("button, input:not([type=hidden]), select, a.button").forEach((el) => {
        if (!visible(el) || el.closest("[hidden]") || folded(el)) return;
        const b = boxOf(el);
        if (b.w < 44 - 0.01 || b.h < 44 - 0.01) out.push("scorer's " + nameOf(el) + ": " + Math.round(b.w) + " x " + Math.round(b.h) + " px, under 44 x 44");
      });
    });
  }
  const wide = document.documentElement.scrollWidth;
  if (wide > innerWidth) out.push("the page scrolls sideways: " + wide + " px wide at " + innerWidth);
  return out;
}
"""


def problems(page, *, scorer: bool = False) -> list[str]:
    return page.evaluate(MEASURE, scorer)
