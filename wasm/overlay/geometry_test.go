package main

import (
	"math"
	"testing"
)

func TestCellAtPixelOfWithOffset(t *testing.T) {
	g := geometry{cell: 20, ox: 7, oy: 11}
	if px, py := g.pixelOf(5, 5); px != 117 || py != 121 {
		t.Fatalf("pixelOf(5, 5) = (%v, %v), want the centre (117, 121)", px, py)
	}
	for _, c := range []struct{ px, py, x, y float64 }{
		{117, 121, 5, 5},
		{7, 11, 0, 0},          // the corner of square (0, 0) is in it
		{26.999, 30.999, 0, 0}, // …and so is all but its far edges
		{27, 31, 1, 1},         // which belong to the next squares
		{6.999, 11, -1, 0},     // left of the offset: negative squares
		{0, 0, -1, -1},         // the canvas's corner
		{7 + 20*40, 11 - 20*3, 40, -3},
	} {
		if x, y := g.cellAt(c.px, c.py); x != c.x || y != c.y {
			t.Errorf("cellAt(%v, %v) = (%v, %v), want (%v, %v)", c.px, c.py, x, y, c.x, c.y)
		}
	}
}

func TestCellAtPixelOfRoundTrip(t *testing.T) {
	for _, g := range []geometry{
		{cell: 20, ox: 7, oy: 11},
		{cell: 32},
		{cell: 13.7, ox: -3.3, oy: 1234.5},
		{cell: 0.25, ox: 1e7, oy: -1e7},
		{cell: 1000, ox: -1e7, oy: 0.1},
	} {
		for _, x := range []float64{-1000000, -999, -1, 0, 1, 5, 77, 4095, 999999, 1000000} {
			for _, y := range []float64{-1000000, -3, 0, 5, 1000000} {
				px, py := g.pixelOf(x, y)
				if cx, cy := g.cellAt(px, py); cx != x || cy != y {
					t.Errorf("%+v: cellAt(pixelOf(%v, %v)) = (%v, %v)", g, x, y, cx, cy)
				}
			}
		}
	}
}

func TestBackingStore(t *testing.T) {
	for _, c := range []struct {
		w, h, dpr float64
		bw, bh    int
		scale     float64
	}{
		{300, 240, 1, 300, 240, 1},
		{300, 240, 2, 600, 480, 2},          // deviceScaleFactor 2: doubled
		{300, 240, 1.25, 375, 300, 1.25},    // a zoomed page
		{301, 199, 1.5, 452, 299, 1.5},      // rounded: 451.5 → 452, 298.5 → 299
		{300, 240, 0, 300, 240, 1},          // no ratio known: 1
		{300, 240, math.NaN(), 300, 240, 1}, // …nor a nonsense one
		{10000, 5000, 2, 16384, 8192, 1.6384},
	} {
		bw, bh, scale := backing(c.w, c.h, c.dpr)
		if bw != c.bw || bh != c.bh || math.Abs(scale-c.scale) > 1e-12 {
			t.Errorf("backing(%v, %v, %v) = %d × %d at %v, want %d × %d at %v", c.w, c.h, c.dpr, bw, bh, scale, c.bw, c.bh, c.scale)
		}
	}
}

func TestTransformAndFrame(t *testing.T) {
	g := geometry{cell: 20, ox: 7, oy: 11}
	if tr := g.transform(2); tr != [6]float64{2, 0, 0, 2, 14, 22} {
		t.Errorf("transform(2) = %v: CSS pixels × 2, the offset scaled too", tr)
	}
	f := g.frame(300, 240)
	// The canvas shows squares -1…14 across ((300-7)/20 = 14.65) and -1…11 down; one more each side.
	want := frame{x0: -2, y0: -2, x1: 15, y1: 12, left: -7, right: 293}
	if f != want {
		t.Errorf("frame(300, 240) = %+v, want %+v", f, want)
	}
	if !f.in(0, 0) || !f.in(15, 12) || f.in(16, 0) || f.in(0, -3) {
		t.Error("frame.in is wrong at its edges")
	}
	if f := (geometry{cell: 1e-300}).frame(1e10, 1e10); f.x1 != math.MaxInt32 || f.x0 != -1 {
		t.Errorf("a frame past int32 is clamped: %+v", f)
	}
}
