package template

import (
	"errors"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// §8.3, §2.2: Validate rejects a dimension that is zero or negative (ErrInvalid) or past the
// limits (ErrTooLarge), naming the dimension and the value; a zero height, width or within
// means "default" and is valid.
func TestValidate_8_3(t *testing.T) {
	tests := []struct {
		s    Shape
		want error  // nil, ErrInvalid or ErrTooLarge
		says string // a fragment of the message
	}{
		{Circle{Radius: 1}, nil, ""},
		{Circle{Radius: MaxDim, Height: MaxHeight}, nil, ""},
		{Circle{Radius: 0}, ErrInvalid, "radius"},
		{Circle{Radius: -3}, ErrInvalid, "-3"},
		{Circle{Radius: MaxDim + 1}, ErrTooLarge, "1001"},
		{Circle{Radius: 3, Height: -1}, ErrInvalid, "height"},
		{Circle{Radius: 3, Height: MaxHeight + 1}, ErrTooLarge, "height"},

		{Cone{Length: 4, Dir: grid.NW}, nil, ""},
		{Cone{Length: 0, Dir: grid.N}, ErrInvalid, "length"},
		{Cone{Length: -1, Dir: grid.N}, ErrInvalid, "length"},
		{Cone{Length: MaxDim + 1, Dir: grid.N}, ErrTooLarge, "length"},
		{Cone{Length: 4, Dir: grid.Dir(8)}, ErrInvalid, "direction"},
		{Cone{Length: 4, Dir: grid.N, Height: -2}, ErrInvalid, "height"},

		{Line{Length: 5, Dir: grid.S, Width: 2}, nil, ""},
		{Line{Length: 5, Dir: grid.S}, nil, ""}, // width 0 means 1
		{Line{Length: 0, Dir: grid.S}, ErrInvalid, "length"},
		{Line{Length: 5, Dir: grid.Dir(200)}, ErrInvalid, "direction"},
		{Line{Length: 5, Dir: grid.S, Width: -1}, ErrInvalid, "width"},
		{Line{Length: 5, Dir: grid.S, Width: MaxDim + 1}, ErrTooLarge, "width"},
		{Line{Length: 5, Dir: grid.S, Height: MaxHeight + 1}, ErrTooLarge, "height"},

		{Rect{Width: 3, Length: 4}, nil, ""},
		{Rect{Width: 0, Length: 4}, ErrInvalid, "width"},
		{Rect{Width: 3, Length: -4}, ErrInvalid, "length"},
		{Rect{Width: MaxDim + 1, Length: 4}, ErrTooLarge, "width"},
		{Rect{Width: 3, Length: 4, Height: -7}, ErrInvalid, "height"},

		{Aura{Radius: 3}, nil, ""},
		{Aura{Radius: 0}, ErrInvalid, "radius"},
		{Aura{Radius: MaxDim + 1}, ErrTooLarge, "radius"},
		{Burst{Radius: -2}, ErrInvalid, "radius"},
		{Burst{Radius: MaxDim + 1}, ErrTooLarge, "radius"},

		{Cube{Side: 3}, nil, ""},
		{Cube{Side: 3, Within: 10}, nil, ""},
		{Cube{Side: 0, Within: 10}, ErrInvalid, "side"},
		{Cube{Side: 3, Within: -1}, ErrInvalid, "within"},
		{Cube{Side: 3, Within: MaxDim + 1}, ErrTooLarge, "within"},

		{DSLine{Length: 5, Width: 1, Within: 1}, nil, ""},
		{DSLine{Length: 5}, nil, ""}, // width 0 means 1
		{DSLine{Length: 0, Width: 1}, ErrInvalid, "length"},
		{DSLine{Length: 5, Width: -1}, ErrInvalid, "width"},
		{DSLine{Length: 5, Width: MaxDim + 1}, ErrTooLarge, "width"},
		{DSLine{Length: MaxDim + 1, Width: 1}, ErrTooLarge, "length"},
		{DSLine{Length: 5, Width: 1, Within: -3}, ErrInvalid, "within"},

		{Wall{Squares: 10, Within: 10}, nil, ""},
		{Wall{Squares: 0}, ErrInvalid, "squares"},
		{Wall{Squares: MaxDim + 1}, ErrTooLarge, "squares"},

		{Circle50{Size: 3}, nil, ""},
		{Circle50{Size: MaxCircle50}, nil, ""},
		{Circle50{Size: 0}, ErrInvalid, "size"},
		{Circle50{Size: MaxCircle50 + 1}, ErrTooLarge, "size"},
	}
	for _, tt := range tests {
		err := tt.s.Validate()
		if tt.want == nil {
			if err != nil {
				t.Errorf("%#v: Validate() = %v, want nil", tt.s, err)
			}
			continue
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("%#v: Validate() = %v, want %v", tt.s, err, tt.want)
			continue
		}
		for _, other := range []error{ErrInvalid, ErrTooLarge} {
			if other != tt.want && errors.Is(err, other) {
				t.Errorf("%#v: %v is also %v", tt.s, err, other)
			}
		}
		if !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%#v: message %q does not say %q", tt.s, err, tt.says)
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != tt.want {
			t.Errorf("%#v: %v is not an *Error of kind %v", tt.s, err, tt.want)
		}
	}
}

// §8.3: CheckCount bounds the cells one template produces; the largest valid dimensions give
// counts past it, and Count does not overflow on them.
func TestCheckCount_8_3(t *testing.T) {
	for _, tt := range []struct {
		n  int
		ok bool
	}{{0, true}, {1, true}, {MaxCells, true}, {MaxCells + 1, false}, {-1, false}, {1 << 40, false}} {
		err := CheckCount(tt.n)
		if (err == nil) != tt.ok {
			t.Errorf("CheckCount(%d) = %v", tt.n, err)
		}
		if err != nil && !errors.Is(err, ErrTooLarge) {
			t.Errorf("CheckCount(%d) = %v, not ErrTooLarge", tt.n, err)
		}
	}
	big := []struct {
		s    Shape
		want int
	}{
		{Circle{Radius: MaxDim, Height: MaxHeight}, 2001 * 2001 * 1000},
		{Cone{Length: MaxDim, Dir: grid.N, Height: MaxHeight}, 1000 * 1000 * 1000},
		{Cone{Length: MaxDim, Dir: grid.NE, Height: MaxHeight}, 1000 * 1001 / 2 * 1000},
		{Line{Length: MaxDim, Dir: grid.E, Width: MaxDim, Height: MaxHeight}, 1000 * 1000 * 1000},
		{Rect{Width: MaxDim, Length: MaxDim}, 1000 * 1000 * 1000},
		{Cube{Side: MaxDim}, 1000 * 1000 * 1000},
		{Aura{Radius: MaxDim}, 2001 * 2001 * 2001},
		{DSLine{Length: MaxDim, Width: MaxDim}, 1000 * 1000 * 1000},
	}
	for _, b := range big {
		if err := b.s.Validate(); err != nil {
			t.Errorf("%v: %v", b.s, err)
		}
		p := Placement{Aim: grid.Cell{X: 1}}
		n := b.s.Count(p)
		if n != b.want {
			t.Errorf("%v: Count() = %d, want %d", b.s, n, b.want)
		}
		if err := CheckCount(n); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%v: CheckCount(%d) = %v, want ErrTooLarge", b.s, n, err)
		}
	}
}
