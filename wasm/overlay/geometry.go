package main

import "math"

// A geometry places the board on the canvas, in CSS pixels: square (x, y) spans
// ox + x·cell … ox + (x+1)·cell across and oy + y·cell … oy + (y+1)·cell down (y grows south,
// as on the board, SPEC §1.1). The device pixel ratio only scales the backing store: every
// coordinate an overlay takes or gives is in CSS pixels from the canvas's top-left corner.
type geometry struct {
	cell   float64 // CSS pixels a square
	ox, oy float64 // where the corner of square (0, 0) is
}

// cellAt is the square under CSS pixel (px, py): the one whose span holds it, left and top
// edges included.
func (g geometry) cellAt(px, py float64) (x, y float64) {
	return math.Floor((px - g.ox) / g.cell), math.Floor((py - g.oy) / g.cell)
}

// pixelOf is the centre of square (x, y), in CSS pixels: cellAt(pixelOf(x, y)) is (x, y).
func (g geometry) pixelOf(x, y float64) (px, py float64) {
	return g.ox + (x+0.5)*g.cell, g.oy + (y+0.5)*g.cell
}

// maxBacking is the largest side of a backing store drawn at full resolution: browsers refuse
// much larger canvases (Chromium's side limit is 32767, its area limit 268 million pixels).
const maxBacking = 16384

// backing is the size of the backing store of a canvas of CSS size w × h at device pixel ratio
// dpr — its CSS size × dpr, rounded — and the scale from CSS pixels to it: dpr, or less when
// that would make a side longer than maxBacking.
func backing(w, h, dpr float64) (bw, bh int, scale float64) {
	if !(dpr > 0) || !finite(dpr) {
		dpr = 1
	}
	scale = dpr
	if side := math.Max(w, h) * scale; side > maxBacking {
		scale = maxBacking / math.Max(w, h)
	}
	return int(math.Round(w * scale)), int(math.Round(h * scale)), scale
}

// transform is the canvas transform (a, b, c, d, e, f) under which the display list, in CSS
// pixels from the corner of square (0, 0), lands on a backing store of the given scale.
func (g geometry) transform(scale float64) [6]float64 {
	return [6]float64{scale, 0, 0, scale, g.ox * scale, g.oy * scale}
}

// A frame is the part of the board a canvas of CSS size w × h shows, in squares, one square
// of margin on every side (so that an outline along its edge is drawn off the canvas), and
// its left and right edges in board pixels (labels are kept inside them).
type frame struct {
	x0, y0, x1, y1 int     // squares x0…x1, y0…y1, inclusive
	left, right    float64 // board pixels: 0 is the west edge of square 0
}

func (g geometry) frame(w, h float64) frame {
	x0, y0 := g.cellAt(0, 0)
	x1, y1 := g.cellAt(w, h)
	return frame{
		x0: clampInt(x0 - 1), y0: clampInt(y0 - 1), x1: clampInt(x1 + 1), y1: clampInt(y1 + 1),
		left: -g.ox, right: w - g.ox,
	}
}

// clampInt is v as an int, within ±(2^31 − 1): far past any cell (cells lie within ±2^21).
func clampInt(v float64) int {
	const lim = math.MaxInt32
	switch {
	case v > lim:
		return lim
	case v < -lim:
		return -lim
	}
	return int(v)
}

// in reports whether square (x, y) is in the frame.
func (f frame) in(x, y int) bool { return x >= f.x0 && x <= f.x1 && y >= f.y0 && y <= f.y1 }
