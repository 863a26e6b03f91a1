package engine

import (
	"strconv"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
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

// String is never inlined, for the module's size (see num.Itoa).
//
//go:noinline
func (l label) String() string {
	if l.i < 0 {
		return l.name
	}
	return l.name + "[" + num.Itoa(l.i) + "]"
}

func checkCoord(where label, x, y, z int) *Error {
	if !inCoord(x, y, z) {
		return newError(CodeTooLarge, where.String()+": coordinates past ±"+num.Itoa(MaxCoord))
	}
	return nil
}

// inCoord reports whether x, y and z all lie within ±MaxCoord.
func inCoord(x, y, z int) bool {
	return uint(x+MaxCoord) <= 2*MaxCoord && uint(y+MaxCoord) <= 2*MaxCoord && uint(z+MaxCoord) <= 2*MaxCoord
}

func cellText(c grid.Cell) string {
	return "[" + num.Itoa(c.X) + ", " + num.Itoa(c.Y) + ", " + num.Itoa(c.Z) + "]"
}

// entityOf validates a token (SPEC §1.5).
func entityOf(where label, t *Token) (entity, *Error) {
	if err := checkCoord(where, t.X, t.Y, t.Z); err != nil {
		return entity{}, err
	}
	size := t.Size
	if t.SizeName != "" {
		n, ok := grid.SizeByName(t.SizeName)
		if !ok {
			return entity{}, newError(CodeBadRequest, where.String()+".size: unknown size "+num.Quote(t.SizeName)+" (expected a number or Tiny, Small, Medium, Large, Huge, Gargantuan, 1T, 1S, 1M, 1L)")
		}
		size = n
	}
	size, err := extent(where, ".size", size, 1)
	if err != nil {
		return entity{}, err
	}
	height, err := extent(where, ".height", t.Height, size)
	if err != nil {
		return entity{}, err
	}
	facing := grid.N
	if t.Facing != "" {
		if facing, err = dirOf(where.String()+".facing", t.Facing); err != nil {
			return entity{}, err
		}
	}
	return entity{tok: t, space: grid.Space{Anchor: grid.Cell{X: t.X, Y: t.Y, Z: t.Z}, Size: size, Height: height}, facing: facing}, nil
}

// checkTokens validates the tokens: each valid, ids present and unique, none the caster's.
// When out is not nil (it then has len(tokens)), it receives the entities.
func checkTokens(tokens []Token, caster *Token, out []entity) *Error {
	if len(tokens) > MaxTokens {
		return newError(CodeTooLarge, "tokens: "+num.Itoa(len(tokens))+" tokens, past the limit of "+num.Itoa(MaxTokens))
	}
	seen := make(map[string]int, len(tokens))
	for i := range tokens {
		where := label{"tokens", i}
		e, err := entityOf(where, &tokens[i])
		if err != nil {
			return err
		}
		if out != nil {
			out[i] = e
		}
		if tokens[i].ID == "" {
			return newError(CodeBadRequest, where.String()+".id: every token needs an id")
		}
		if j, dup := seen[tokens[i].ID]; dup {
			return newError(CodeBadRequest, where.String()+".id: "+num.Quote(tokens[i].ID)+" is also the id of tokens["+num.Itoa(j)+"]")
		}
		seen[tokens[i].ID] = i
		if caster != nil && caster.ID != "" && caster.ID == tokens[i].ID {
			return newError(CodeBadRequest, where.String()+".id: "+num.Quote(tokens[i].ID)+" is also the caster's id")
		}
	}
	return nil
}

// dirOf reads one of the eight directions from field.
func dirOf(field, s string) (grid.Dir, *Error) {
	d, ok := grid.ParseDir(s)
	if !ok {
		return 0, newError(CodeBadRequest, field+": expected one of N, NE, E, SE, S, SW, W, NW, got "+num.Quote(s))
	}
	return d, nil
}

// extent is a token's size or height: v, or def when v is 0; past 1 … MaxSize it is an error
// naming where and the field.
func extent(where label, field string, v, def int) (int, *Error) {
	if v == 0 {
		v = def
	}
	if v < 0 || v > MaxSize {
		return 0, newError(CodeBadRequest, where.String()+field+": expected 1 … "+num.Itoa(MaxSize)+", got "+num.Itoa(v))
	}
	return v, nil
}

// entitiesOf validates the tokens (see checkTokens) and returns them as entities.
func entitiesOf(tokens []Token, caster *Token) ([]entity, *Error) {
	out := make([]entity, len(tokens))
	if err := checkTokens(tokens, caster, out); err != nil {
		return nil, err
	}
	return out, nil
}

// checkFill reports a fill outside (0, 1] (0 is allowed: a full block).
func checkFill(where label, f float64) *Error {
	if !goodFill(f) {
		return newError(CodeBadRequest, where.String()+".fill: expected a number in (0, 1], got "+strconv.FormatFloat(f, 'g', -1, 64))
	}
	return nil
}

// goodFill reports whether f lies in (0, 1] or is 0 (false for NaN).
func goodFill(f float64) bool { return f == 0 || f > 0 && f <= 1 }

// boundsBox is the box of b.
func boundsBox(b *Bounds) grid.Box { return grid.Box{Min: cellOf(b.Min), Max: cellOf(b.Max)} }

// checkObstacles validates the obstacles and lists the indices of those inside window (of
// all of them when window is nil), in request order. It reads the obstacles once: on a board
// of 20 000 obstacles, each pass over them costs more than a whole typical evaluation.
func checkObstacles(obstacles []Obstacle, window *grid.Box) ([]int32, *Error) {
	if len(obstacles) > MaxObstacles {
		return nil, newError(CodeTooLarge, "obstacles: "+num.Itoa(len(obstacles))+" obstacles, past the limit of "+num.Itoa(MaxObstacles))
	}
	var in []int32
	for i := range obstacles {
		o := &obstacles[i]
		if !inCoord(o.X, o.Y, o.Z) || !goodFill(o.Fill) { // the checks inlined: 20 000 obstacles
			if err := checkCoord(label{"obstacles", i}, o.X, o.Y, o.Z); err != nil {
				return nil, err
			}
			return nil, checkFill(label{"obstacles", i}, o.Fill)
		}
		if window == nil || window.Contains(grid.Cell{X: o.X, Y: o.Y, Z: o.Z}) {
			in = append(in, int32(i))
		}
	}
	return in, nil
}

// indexObstacles indexes the valid obstacles listed in "in". When they are the ones inside a
// window, the board answers for the cells of the window alone (outside it every cell reads
// empty). The cells are read straight from the request, without a slice of board.Solid
// (20 000 obstacles would make it 640 KB). It is never inlined, for the module's size.
//
//go:noinline
func indexObstacles(obstacles []Obstacle, in []int32) *board.Solids {
	return board.FromSeq(func(yield func(board.Solid) bool) {
		for _, i := range in {
			o := &obstacles[i]
			if !yield(board.Solid{Cell: grid.Cell{X: o.X, Y: o.Y, Z: o.Z}, Fill: units(o.Fill)}) {
				return
			}
		}
	})
}

// cell32 is c as a result holds it.
func cell32(c grid.Cell) [3]int32 { return [3]int32{int32(c.X), int32(c.Y), int32(c.Z)} }

func cellOf(p [3]int) grid.Cell { return grid.Cell{X: p[0], Y: p[1], Z: p[2]} }
func posOf(c grid.Cell) Pos     { return Pos{c.X, c.Y, c.Z} }
func cellAt(p Pos) grid.Cell    { return grid.Cell{X: p.X, Y: p.Y, Z: p.Z} }

// pathOf validates a list of [x, y, z] squares.
func pathOf(where string, path [][3]int) ([]grid.Cell, *Error) {
	if len(path) > MaxPath {
		return nil, newError(CodeTooLarge, where+": "+num.Itoa(len(path))+" squares, past the limit of "+num.Itoa(MaxPath))
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

// pointAt is cell c's anchor as a result's origin point.
func pointAt(c grid.Cell) Point { return Point{float64(c.X), float64(c.Y), float64(c.Z)} }
