package engine

import (
	"math"
	"strconv"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
)

// entity is a validated token.
type entity struct {
	tok    *Token
	space  grid.Space
	facing grid.Dir
}

// A label names a request field in an error message: name, or name[i] when i ≥ 0. Its text
// is built only when an error needs it (validating 20 000 obstacles builds no strings).
type label struct {
	name string
	i    int
}

func field(name string) label { return label{name, -1} }

// String is never inlined, as itoa below.
//
//go:noinline
func (l label) String() string {
	if l.i < 0 {
		return l.name
	}
	return l.name + "[" + itoa(l.i) + "]"
}

func checkCoord(where label, x, y, z int) *Error {
	if x < -MaxCoord || x > MaxCoord || y < -MaxCoord || y > MaxCoord || z < -MaxCoord || z > MaxCoord {
		return newError(CodeTooLarge, where.String()+": coordinates past ±"+itoa(MaxCoord))
	}
	return nil
}

// itoa is never inlined: error messages call it at many places, and each inlined copy adds
// some hundred bytes to the WebAssembly module.
//
//go:noinline
func itoa(v int) string { return strconv.Itoa(v) }

func cellText(c grid.Cell) string { return "[" + itoa(c.X) + ", " + itoa(c.Y) + ", " + itoa(c.Z) + "]" }

// entityOf validates a token (SPEC §1.5).
func entityOf(where label, t *Token) (entity, *Error) {
	if err := checkCoord(where, t.X, t.Y, t.Z); err != nil {
		return entity{}, err
	}
	size := t.Size
	if t.SizeName != "" {
		n, ok := grid.SizeByName(t.SizeName)
		if !ok {
			return entity{}, newError(CodeBadRequest, where.String()+".size: unknown size \""+t.SizeName+"\" (expected a number or Tiny, Small, Medium, Large, Huge, Gargantuan, 1T, 1S, 1M, 1L)")
		}
		size = n
	}
	if size == 0 {
		size = 1
	}
	if size < 0 || size > MaxSize {
		return entity{}, newError(CodeBadRequest, where.String()+".size: expected 1 … "+itoa(MaxSize)+", got "+itoa(size))
	}
	height := t.Height
	if height == 0 {
		height = size
	}
	if height < 0 || height > MaxSize {
		return entity{}, newError(CodeBadRequest, where.String()+".height: expected 1 … "+itoa(MaxSize)+", got "+itoa(height))
	}
	facing := grid.N
	if t.Facing != "" {
		d, ok := grid.ParseDir(t.Facing)
		if !ok {
			return entity{}, newError(CodeBadRequest, where.String()+".facing: expected one of N, NE, E, SE, S, SW, W, NW, got \""+t.Facing+"\"")
		}
		facing = d
	}
	return entity{tok: t, space: grid.Space{Anchor: grid.Cell{X: t.X, Y: t.Y, Z: t.Z}, Size: size, Height: height}, facing: facing}, nil
}

// entitiesOf validates the tokens: each valid, ids present and unique.
func entitiesOf(tokens []Token, caster *Token) ([]entity, *Error) {
	if len(tokens) > MaxTokens {
		return nil, newError(CodeTooLarge, "tokens: "+itoa(len(tokens))+" tokens, past the limit of "+itoa(MaxTokens))
	}
	out := make([]entity, len(tokens))
	seen := make(map[string]int, len(tokens))
	for i := range tokens {
		where := label{"tokens", i}
		e, err := entityOf(where, &tokens[i])
		if err != nil {
			return nil, err
		}
		if tokens[i].ID == "" {
			return nil, newError(CodeBadRequest, where.String()+".id: every token needs an id")
		}
		if j, dup := seen[tokens[i].ID]; dup {
			return nil, newError(CodeBadRequest, where.String()+".id: \""+tokens[i].ID+"\" is also the id of tokens["+itoa(j)+"]")
		}
		if caster != nil && caster.ID != "" && caster.ID == tokens[i].ID {
			return nil, newError(CodeBadRequest, where.String()+".id: \""+tokens[i].ID+"\" is also the caster's id")
		}
		seen[tokens[i].ID] = i
		out[i] = e
	}
	return out, nil
}

// checkFill reports a fill outside (0, 1] (0 is allowed: a full block).
func checkFill(where label, f float64) *Error {
	if f != 0 && !(f > 0 && f <= 1) { // also rejects NaN
		return newError(CodeBadRequest, where.String()+".fill: expected a number in (0, 1], got "+strconv.FormatFloat(f, 'g', -1, 64))
	}
	return nil
}

// units is a valid fill in lattice units, rounded to the nearest (SPEC §5.1); 0 means a full
// block.
func units(f float64) int {
	if f == 0 || f == 1 {
		return board.Full
	}
	return max(1, int(math.Round(f*board.Full)))
}

// solidsOf validates the obstacles and indexes them.
func solidsOf(obstacles []Obstacle) (*board.Solids, *Error) {
	if len(obstacles) > MaxObstacles {
		return nil, newError(CodeTooLarge, "obstacles: "+itoa(len(obstacles))+" obstacles, past the limit of "+itoa(MaxObstacles))
	}
	for i, o := range obstacles {
		where := label{"obstacles", i}
		if err := checkCoord(where, o.X, o.Y, o.Z); err != nil {
			return nil, err
		}
		if err := checkFill(where, o.Fill); err != nil {
			return nil, err
		}
	}
	// Index them straight from the request, without a slice of board.Solid (20 000 obstacles
	// would make it 640 KB).
	return board.FromSeq(func(yield func(board.Solid) bool) {
		for _, o := range obstacles {
			if !yield(board.Solid{Cell: grid.Cell{X: o.X, Y: o.Y, Z: o.Z}, Fill: units(o.Fill)}) {
				return
			}
		}
	}), nil
}

func cellOf(p [3]int) grid.Cell { return grid.Cell{X: p[0], Y: p[1], Z: p[2]} }
func posOf(c grid.Cell) Pos     { return Pos{c.X, c.Y, c.Z} }
func cellAt(p Pos) grid.Cell    { return grid.Cell{X: p.X, Y: p.Y, Z: p.Z} }

// pathOf validates a list of [x, y, z] squares.
func pathOf(where string, path [][3]int) ([]grid.Cell, *Error) {
	if len(path) > MaxPath {
		return nil, newError(CodeTooLarge, where+": "+itoa(len(path))+" squares, past the limit of "+itoa(MaxPath))
	}
	out := make([]grid.Cell, len(path))
	for i, p := range path {
		if err := checkCoord(label{where, i}, p[0], p[1], p[2]); err != nil {
			return nil, err
		}
		out[i] = cellOf(p)
	}
	return out, nil
}
