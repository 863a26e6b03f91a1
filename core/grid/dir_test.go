package grid

import (
	"testing"

	"github.com/aoekit/aoekit/core/internal/num"
)

// §1.2: the eight directions, indexed clockwise from north, with their unit offsets
// (y grows south).
func TestDirs_1_2(t *testing.T) {
	tests := []struct {
		d      Dir
		index  int
		name   string
		dx, dy int
		diag   bool
	}{
		{N, 0, "N", 0, -1, false},
		{NE, 1, "NE", 1, -1, true},
		{E, 2, "E", 1, 0, false},
		{SE, 3, "SE", 1, 1, true},
		{S, 4, "S", 0, 1, false},
		{SW, 5, "SW", -1, 1, true},
		{W, 6, "W", -1, 0, false},
		{NW, 7, "NW", -1, -1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if int(tt.d) != tt.index {
				t.Errorf("index = %d, want %d", tt.d, tt.index)
			}
			if Dirs()[tt.index] != tt.d {
				t.Errorf("Dirs()[%d] = %v, want %v", tt.index, Dirs()[tt.index], tt.d)
			}
			if got := tt.d.String(); got != tt.name {
				t.Errorf("String() = %q, want %q", got, tt.name)
			}
			if got, ok := ParseDir(tt.name); !ok || got != tt.d {
				t.Errorf("ParseDir(%q) = %v, %v; want %v, true", tt.name, got, ok, tt.d)
			}
			if got, want := tt.d.Offset(), C(tt.dx, tt.dy, 0); got != want {
				t.Errorf("Offset() = %v, want %v", got, want)
			}
			if got := tt.d.Diagonal(); got != tt.diag {
				t.Errorf("Diagonal() = %v, want %v", got, tt.diag)
			}
			if !tt.d.Valid() {
				t.Errorf("Valid() = false")
			}
		})
	}
}

// §1.2, §2.2: direction codes are upper case and exact; anything else is not a direction.
func TestParseDirRejects_1_2(t *testing.T) {
	for _, s := range []string{"", "n", "ne", "Ne", "nE", "NNE", "N ", " N", "EN", "X", "SSW", "0"} {
		if d, ok := ParseDir(s); ok {
			t.Errorf("ParseDir(%q) = %v, true; want false", s, d)
		}
	}
	for _, d := range []Dir{8, 9, 100, 255} {
		if d.Valid() {
			t.Errorf("Dir(%d).Valid() = true", d)
		}
		if s := d.String(); s != "" {
			t.Errorf("Dir(%d).String() = %q, want \"\"", d, s)
		}
	}
}

// §1.2: rotating an offset (dx, dy) by 90° clockwise gives (−dy, dx).
func TestRot90_1_2(t *testing.T) {
	tests := []struct {
		in   Cell
		k    int
		want Cell
	}{
		{C(0, -1, 0), 1, C(1, 0, 0)},   // N → E
		{C(1, 0, 0), 1, C(0, 1, 0)},    // E → S
		{C(0, 1, 0), 1, C(-1, 0, 0)},   // S → W
		{C(-1, 0, 0), 1, C(0, -1, 0)},  // W → N
		{C(1, -1, 0), 1, C(1, 1, 0)},   // NE → SE
		{C(2, -5, 7), 1, C(5, 2, 7)},   // z unchanged
		{C(2, -5, 7), 2, C(-2, 5, 7)},  // half turn
		{C(2, -5, 7), 3, C(-5, -2, 7)}, // three quarters
		{C(2, -5, 7), 4, C(2, -5, 7)},
		{C(2, -5, 7), 0, C(2, -5, 7)},
		{C(2, -5, 7), -1, C(-5, -2, 7)}, // one counter-clockwise = three clockwise
		{C(2, -5, 7), -4, C(2, -5, 7)},
		{C(2, -5, 7), 9, C(5, 2, 7)},
		{C(2, -5, 7), -7, C(5, 2, 7)},
	}
	for _, tt := range tests {
		if got := tt.in.Rot90(tt.k); got != tt.want {
			t.Errorf("%v.Rot90(%d) = %v, want %v", tt.in, tt.k, got, tt.want)
		}
	}
	// Property: Rot90(k) is k applications of (dx, dy) → (−dy, dx), for k in −12…12.
	for dx := -4; dx <= 4; dx++ {
		for dy := -4; dy <= 4; dy++ {
			c := C(dx, dy, 3)
			for k := -12; k <= 12; k++ {
				want := c
				for range ((k % 4) + 4) % 4 {
					want = C(-want.Y, want.X, want.Z)
				}
				if got := c.Rot90(k); got != want {
					t.Fatalf("%v.Rot90(%d) = %v, want %v", c, k, got, want)
				}
				if back := c.Rot90(k).Rot90(-k); back != c {
					t.Fatalf("%v.Rot90(%d).Rot90(%d) = %v", c, k, -k, back)
				}
			}
		}
	}
}

// §1.2: the directions are indexed clockwise, so two steps of 45° are one quarter turn of the
// offset, and Turn wraps modulo 8 either way.
func TestTurn_1_2(t *testing.T) {
	for _, d := range Dirs() {
		if got, want := d.Turn(2).Offset(), d.Offset().Rot90(1); got != want {
			t.Errorf("%v.Turn(2).Offset() = %v, want %v (a quarter turn of %v)", d, got, want, d.Offset())
		}
		for k := -24; k <= 24; k++ {
			want := Dirs()[((int(d)+k)%8+8)%8]
			if got := d.Turn(k); got != want {
				t.Errorf("%v.Turn(%d) = %v, want %v", d, k, got, want)
			}
		}
		if d.Turn(8) != d || d.Turn(-8) != d {
			t.Errorf("%v.Turn(±8) is not %v", d, d)
		}
		if d.Turn(1).Diagonal() == d.Diagonal() {
			t.Errorf("%v.Turn(1) has the same diagonality as %v", d, d)
		}
	}
	// Adjacent directions are 45° apart: their offsets differ by exactly one unit on one axis.
	for _, d := range Dirs() {
		a, b := d.Offset(), d.Turn(1).Offset()
		if diff := num.Abs(a.X-b.X) + num.Abs(a.Y-b.Y); diff != 1 {
			t.Errorf("%v and %v offsets %v, %v are not neighbours on the compass", d, d.Turn(1), a, b)
		}
	}
}

// §1.3: the absolute direction is (facing + relative) mod 8; N is forward, E right, S behind,
// W left. Facing E, Con4NE points SE.
func TestFacing_1_3(t *testing.T) {
	tests := []struct {
		facing, rel, want Dir
		why               string
	}{
		{E, NE, SE, "SPEC §1.3 example: facing E, Con4NE points SE"},
		{N, N, N, "default facing N: relative is absolute"},
		{N, SW, SW, "default facing N"},
		{E, N, E, "forward is the facing"},
		{E, E, S, "right of east is south"},
		{E, W, N, "left of east is north"},
		{E, S, W, "behind east is west"},
		{S, N, S, "forward"},
		{S, E, W, "right of south is west"},
		{W, E, N, "right of west is north"},
		{W, NE, NW, "forward-right of west is north-west"},
		{NE, N, NE, "forward"},
		{NE, E, SE, "right of north-east is south-east"},
		{NE, NE, E, "two 45° steps"},
		{NW, NE, N, "7+1 wraps to 0"},
		{NW, NW, W, "7+7 = 14 mod 8 = 6"},
		{SE, W, NE, "3+6 = 9 mod 8 = 1"},
	}
	for _, tt := range tests {
		if got := tt.rel.Abs(tt.facing); got != tt.want {
			t.Errorf("%v.Abs(facing %v) = %v, want %v (%s)", tt.rel, tt.facing, got, tt.want, tt.why)
		}
	}
	// Property: for every facing and relative direction, the absolute index is the sum mod 8,
	// and for an even facing the offset is the relative offset turned by facing/2 quarter turns.
	for _, f := range Dirs() {
		for _, d := range Dirs() {
			a := d.Abs(f)
			if int(a) != (int(f)+int(d))%8 {
				t.Errorf("%v.Abs(%v) = %v", d, f, a)
			}
			if f%2 == 0 {
				if got, want := a.Offset(), d.Offset().Rot90(int(f)/2); got != want {
					t.Errorf("%v.Abs(%v).Offset() = %v, want %v", d, f, got, want)
				}
			}
		}
	}
}
