/**
 * Pan and zoom of the map: the wheel zooms around the pointer, a drag on the drawing moves it,
 * and `fit` shows a given area (the whole map, a project, the search's matches) at once. The
 * view is one `transform` attribute on the viewport group, never a style.
 */

const MIN_SCALE = 0.05;
const MAX_SCALE = 3;
/** A fit never enlarges past this, so that a small map is not drawn huge. */
const FIT_MAX_SCALE = 1.2;
/** Pixels a press must move before it is a drag (and not a click on a node). */
const DRAG_THRESHOLD = 4;

/** An area of the drawing, in its own units. */
export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The controls of one map's view. */
export interface Zoom {
  /** Shows `area` whole, centred, with a margin. */
  fit(area: Area): void;
}

/** Pan and zoom on `svgEl`, moving `viewport` (a `g` inside it). */
export function panZoom(svgEl: SVGSVGElement, viewport: SVGGElement): Zoom {
  let scale = 1;
  let tx = 0;
  let ty = 0;
  const apply = () => {
    viewport.setAttribute("transform", `translate(${tx.toFixed(1)} ${ty.toFixed(1)}) scale(${scale.toFixed(4)})`);
  };
  const local = (e: { clientX: number; clientY: number }) => {
    const r = svgEl.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  svgEl.addEventListener(
    "wheel",
    (e) => {
      e.preventDefault();
      const p = local(e);
      const next = Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale * Math.exp(-e.deltaY * 0.0015)));
      tx = p.x - ((p.x - tx) * next) / scale;
      ty = p.y - ((p.y - ty) * next) / scale;
      scale = next;
      apply();
    },
    { passive: false },
  );

  let press: { x: number; y: number; tx: number; ty: number; id: number; dragging: boolean } | null = null;
  svgEl.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const p = local(e);
    press = { ...p, tx, ty, id: e.pointerId, dragging: false };
  });
  svgEl.addEventListener("pointermove", (e) => {
    if (!press || e.pointerId !== press.id) return;
    const p = local(e);
    const dx = p.x - press.x;
    const dy = p.y - press.y;
    if (!press.dragging && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    if (!press.dragging) {
      press.dragging = true;
      // Captured only once it is a drag, so that a click on a node still reaches the node.
      svgEl.setPointerCapture(e.pointerId);
      svgEl.classList.add("map-dragging");
    }
    tx = press.tx + dx;
    ty = press.ty + dy;
    apply();
  });
  const release = (e: PointerEvent) => {
    if (!press || e.pointerId !== press.id) return;
    if (press.dragging) svgEl.releasePointerCapture(e.pointerId);
    svgEl.classList.remove("map-dragging");
    press = null;
  };
  svgEl.addEventListener("pointerup", release);
  svgEl.addEventListener("pointercancel", release);

  return {
    fit(area: Area) {
      const r = svgEl.getBoundingClientRect();
      const width = r.width || 800;
      const height = r.height || 600;
      const margin = 24;
      scale = Math.max(
        MIN_SCALE,
        Math.min(
          FIT_MAX_SCALE,
          (width - 2 * margin) / Math.max(area.width, 1),
          (height - 2 * margin) / Math.max(area.height, 1),
        ),
      );
      tx = (width - area.width * scale) / 2 - area.x * scale;
      ty = (height - area.height * scale) / 2 - area.y * scale;
      apply();
    },
  };
}
