package template

import (
	"github.com/aoekit/aoekit/core/circle50"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
)

// Circle50 is the 50 % circle "circle x" (SPEC §4): the cells at least half inside a disc of
// radius Size + ½ centred on the origin cell's centre, on the origin's level only. A close
// circle is centred on the caster (SPEC §4.2).
type Circle50 struct {
	Size  int
	Close bool
}

var _ Shape = Circle50{}

// MaxCircle50 is the largest size of a 50 % circle.
const MaxCircle50 = circle50.MaxSize

func (Circle50) Rules() Rules { return Circle50Rules }
func (Circle50) Kind() string { return "circle" }
func (c Circle50) String() string {
	s := "circle " + num.Itoa(c.Size)
	if c.Close {
		return "close " + s
	}
	return s
}
func (c Circle50) Validate() error     { return checkDim("size", c.Size, MaxCircle50) }
func (c Circle50) Count(Placement) int { return circle50.Count(c.Size) }

// Cells visits the disc's cells around p.Origin, ignoring obstacles (SPEC §4.3 is applied on a
// board, by the engine).
func (c Circle50) Cells(p Placement, visit func(grid.Cell)) {
	rows := circle50.Rows(c.Size)
	o := p.Origin
	for dy := -c.Size; dy <= c.Size; dy++ {
		hw := rows[num.Abs(dy)]
		for dx := -hw; dx <= hw; dx++ {
			visit(grid.Cell{X: o.X + dx, Y: o.Y + dy, Z: o.Z})
		}
	}
}
