package engine

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/template"
)

// Move answers a forced-movement request (CONTRACT move, SPEC §3.7). Errors are *Error.
func Move(req *MoveRequest) (*MoveResult, error) { return MoveContext(nil, req) }

// MoveContext is Move watching ctx (a context.Context, or nil: never), as EvaluateContext
// does: when ctx is done it stops, at the next square of the path, with a too_large error
// whose message is "cancelled: " and ctx.Err()'s text. A move's work is bounded by its sizes
// (SPEC §8.3): each square entered looks only at the cells the target's space gains.
func MoveContext(ctx Context, req *MoveRequest) (*MoveResult, error) {
	res, err := move(&budget{ctx: ctx}, req)
	if err != nil {
		return nil, err
	}
	return res, nil
}

func move(w *budget, req *MoveRequest) (*MoveResult, *Error) {
	if req == nil {
		return nil, newError(CodeBadRequest, "request is required")
	}
	switch req.Kind {
	case MovePush, MovePull, MoveSlide:
	default:
		return nil, newError(CodeBadRequest, "kind: expected push, pull or slide, got "+num.Quote(string(req.Kind)))
	}
	if req.Distance < 0 || req.Distance > MaxDistance {
		return nil, newError(CodeBadRequest, "distance: expected 0 … "+num.Itoa(MaxDistance)+", got "+num.Itoa(req.Distance))
	}
	src := cellAt(req.Source)
	if e := checkCoord(field("source"), src.X, src.Y, src.Z); e != nil {
		return nil, e
	}
	tokens, e := entitiesOf(req.Tokens, nil)
	if e != nil {
		return nil, e
	}
	var target *entity
	for i := range tokens {
		if tokens[i].tok.ID == req.Target {
			target = &tokens[i]
		}
	}
	if target == nil {
		return nil, newError(CodeBadRequest, "target: no token has the id "+num.Quote(req.Target))
	}
	// The obstacles are checked here, so that errors keep their order, and indexed once the
	// path is known.
	if _, e = checkObstacles(req.Obstacles, &grid.Box{Min: grid.Cell{X: 1}}); e != nil { // a box of no cell: none kept
		return nil, e
	}
	ws, e := checkWalls(req.Walls, nil)
	if e == nil {
		e = oneWay(req.Walls, "forced movement")
	}
	if e != nil {
		return nil, e
	}
	var path []grid.Cell
	if req.Path != nil {
		if path, e = pathOf("path", req.Path); e != nil {
			return nil, e
		}
		if len(path) > req.Distance {
			return nil, newError(CodeBadRequest, "path: "+num.Itoa(len(path))+" squares, more than the distance "+num.Itoa(req.Distance))
		}
		if e = checkMovePath(req, src, target.space, path); e != nil {
			return nil, e
		}
	} else {
		if req.Kind == MoveSlide {
			return nil, newError(CodeBadRequest, "path is required for a slide: it may go in any direction")
		}
		if path, e = straightPath(req, src, target.space); e != nil {
			return nil, e
		}
	}
	// Only what lies in the box of the spaces the target may enter can stop it: the obstacles
	// and tokens elsewhere are left out of the walk. A push of 1 000 squares otherwise read a
	// board index whose tiles held obstacles beside its path, and looked at every token at
	// every square (0.5 s natively: BenchmarkWorstCase_Push1000Size100).
	sweep := grid.Box{Min: target.space.Min(), Max: target.space.Max()}
	for _, c := range path {
		sp := grid.Space{Anchor: c, Size: target.space.Size, Height: target.space.Height}
		sweep = sweep.Union(grid.Box{Min: sp.Min(), Max: sp.Max()})
	}
	in, _ := checkObstacles(req.Obstacles, &sweep)
	return walk(w, req, target, tokens, terrainOf(indexObstacles(req.Obstacles, in), ws), path, sweep)
}

// straightPath is the engine's path for a push or pull without one: the digital straight line
// (SPEC §3.5) from the source through the target's nearest cell, continued away from the
// source for a push, toward it for a pull, stopping before the pull would pass the source.
func straightPath(req *MoveRequest, src grid.Cell, sp grid.Space) ([]grid.Cell, *Error) {
	near := sp.Nearest(src)
	d := near.Sub(src)
	if req.Kind == MovePull {
		d = src.Sub(near)
	}
	if !req.Vertical {
		d.Z = 0
	}
	if d == (grid.Cell{}) || req.Distance == 0 {
		if req.Distance > 0 && req.Kind == MovePush {
			return nil, newError(CodeBadRequest, "source: the target is at the source (or straight above or below it): no direction to push")
		}
		return []grid.Cell{}, nil
	}
	line := template.DSLine{Length: req.Distance + 1}.Squares(sp.Anchor, sp.Anchor.Add(d))
	out := make([]grid.Cell, 0, req.Distance)
	prev := sp
	for _, c := range line[1:] {
		next := grid.Space{Anchor: c, Size: sp.Size, Height: sp.Height}
		// A pull only moves closer (SPEC §3.7) and stops beside the source: the source's
		// square is the puller's, never entered, and stopping there is no collision.
		if req.Kind == MovePull && (next.DistCell(src) >= prev.DistCell(src) || next.Contains(src)) {
			break
		}
		out = append(out, c)
		prev = next
	}
	return out, nil
}

// checkMovePath validates an explicit path: neighbouring steps, straight for push and pull,
// each step farther from (push) or closer to (pull) the source, no vertical step unless the
// movement is vertical (SPEC §3.7).
func checkMovePath(req *MoveRequest, src grid.Cell, sp grid.Space, path []grid.Cell) *Error {
	full := append([]grid.Cell{sp.Anchor}, path...)
	for i := 1; i < len(full); i++ {
		d := full[i].Sub(full[i-1])
		if grid.Dist(full[i], full[i-1]) != 1 {
			return newError(CodeNotStraight, "path: square "+num.Itoa(i)+" "+cellText(full[i])+" is not next to "+cellText(full[i-1]))
		}
		if d.Z != 0 && !req.Vertical {
			return newError(CodeNotStraight, "path: square "+num.Itoa(i)+" "+cellText(full[i])+" moves vertically, and the movement is not vertical")
		}
		if req.Kind == MoveSlide {
			continue
		}
		a := grid.Space{Anchor: full[i-1], Size: sp.Size, Height: sp.Height}.DistCell(src)
		b := grid.Space{Anchor: full[i], Size: sp.Size, Height: sp.Height}.DistCell(src)
		if req.Kind == MovePush && b <= a {
			return newError(CodeNotStraight, "path: square "+num.Itoa(i)+" "+cellText(full[i])+" is not farther from the source (a push moves away)")
		}
		if req.Kind == MovePull && b >= a {
			return newError(CodeNotStraight, "path: square "+num.Itoa(i)+" "+cellText(full[i])+" is not closer to the source (a pull moves toward it)")
		}
	}
	if req.Kind != MoveSlide {
		if err := template.Straight(full); err != nil {
			return templateError("path", err)
		}
	}
	return nil
}

// walk moves the target along path one square at a time and stops before the first square
// it cannot enter (SPEC §3.7): a step that crosses a thin wall (§5.6, crossesWall), a space
// that would hold an obstacle (any fill) or another creature, or leave the bounds. No space
// entered before held an obstacle, so each square looks only at the cells of its space
// outside the last one's (addsSolid): a size-100 target pushed 1000 squares looks at some
// 3 × 10⁷ cells at most, not 10⁹. The tokens looked at are those that meet sweep, the box of
// every space of the path. It stops, cancelled, when w's context is done.
func walk(w *budget, req *MoveRequest, target *entity, tokens []entity, t *terrain, path []grid.Cell, sweep grid.Box) (*MoveResult, *Error) {
	res := &MoveResult{Path: [][3]int32{}, End: posOf(target.space.Anchor)}
	type near struct {
		k   int
		box grid.Box
	}
	var nears []near // the other tokens whose spaces meet the sweep, in request order
	for k := range tokens {
		b := grid.Box{Min: tokens[k].space.Min(), Max: tokens[k].space.Max()}
		if &tokens[k] != target && sweep.Meets(b) {
			nears = append(nears, near{k, b})
		}
	}
	var prev grid.Box // the space entered last (none yet when i is 0)
	at := target.space
	for i, c := range path {
		if w.stop(1 << 16) {
			return nil, w.err
		}
		next := grid.Space{Anchor: c, Size: target.space.Size, Height: target.space.Height}
		var kind CollisionKind
		with := ""
		if crossesWall(w, t, at, next) {
			kind, with = CollisionWall, "wall"
		}
		if w.err != nil {
			return nil, w.err
		}
		lo, hi := next.Min(), next.Max()
		if with == "" && addsSolid(t, grid.Box{Min: lo, Max: hi}, prev, i > 0) {
			kind, with = CollisionObstacle, "obstacle"
		}
		if with == "" && req.Bounds != nil && leavesBounds(req.Bounds, at, next) {
			kind, with = CollisionEdge, "edge"
		}
		if with == "" {
			for _, n := range nears { // spaces overlap when their boxes meet
				if n.box.Meets(grid.Box{Min: lo, Max: hi}) {
					kind, with = CollisionToken, tokens[n.k].tok.ID
					break
				}
			}
		}
		if with != "" {
			res.Collision = &Collision{Kind: kind, With: with, At: cell32(c), Left: req.Distance - i}
			return res, nil
		}
		res.Path = append(res.Path, cell32(c))
		res.End = posOf(c)
		prev = grid.Box{Min: lo, Max: hi}
		at = next
	}
	return res, nil
}

// crossesWall reports whether the step of a creature from the space from to the space to
// crosses a thin wall (SPEC §5.6): a wall blocks the segment from the centre of a square it
// leaves to the centre of the square it enters, at the mid-height of each level. For a
// creature of one square that is §5.6's test; for a larger one **[engine]** the squares are
// those of its leading side, each moved by the step (the cells of from whose step leaves
// from): a wall is met by the side that reaches it first. The segments are charged to w
// (SPEC §8.3) when a wall is near.
func crossesWall(w *budget, t *terrain, from, to grid.Space) bool {
	d := to.Anchor.Sub(from.Anchor)
	lo, hi := from.Min(), to.Max()
	lo = grid.Cell{X: min(lo.X, to.Min().X), Y: min(lo.Y, to.Min().Y), Z: min(lo.Z, to.Min().Z)}
	hi = grid.Cell{X: max(hi.X, from.Max().X), Y: max(hi.Y, from.Max().Y), Z: max(hi.Z, from.Max().Z)}
	if !t.walls.Near(lattice2(lo), lattice2(hi.Add(grid.Cell{X: 1, Y: 1}))) {
		return false
	}
	// The leading side: the cells of from whose step leaves from, counted as the box less the
	// cells whose step stays in it, and visited alone (visiting the whole space twice a step
	// cost a size-100 push of 1 000 squares 31 s natively, issue 29, 2).
	b := from.Box()
	inner := 1
	for _, a := range [3][2]int{{b.Max.X - b.Min.X + 1, d.X}, {b.Max.Y - b.Min.Y + 1, d.Y}, {b.Max.Z - b.Min.Z + 1, d.Z}} {
		inner *= max(a[0]-num.Abs(a[1]), 0)
	}
	n := boxCells(b) - inner
	if w.charge(n*(segCost+t.walls.Cost(int64(hi.X-lo.X+1)*los.Unit, int64(hi.Y-lo.Y+1)*los.Unit)), "a forced movement's steps past thin walls (SPEC §5.6)") != nil {
		return false
	}
	return leadingSide(b, d, func(c grid.Cell) bool { return t.stepBlocked(c, c.Add(d)) })
}

// leadingSide calls blocked for each cell c of the box b whose step by d leaves b — those on
// a face b moves away from, each once — until it reports true, and reports whether one did.
func leadingSide(b grid.Box, d grid.Cell, blocked func(grid.Cell) bool) bool {
	// The faces, one an axis the step moves along: the slab of cells within |d| of the face
	// ahead. A cell already in an earlier axis's slab is skipped.
	slab := func(lo, hi, dd int) (int, int) {
		switch {
		case dd > 0:
			return max(lo, hi-dd+1), hi
		case dd < 0:
			return lo, min(hi, lo-dd-1)
		}
		return 1, 0 // empty
	}
	xlo, xhi := slab(b.Min.X, b.Max.X, d.X)
	ylo, yhi := slab(b.Min.Y, b.Max.Y, d.Y)
	zlo, zhi := slab(b.Min.Z, b.Max.Z, d.Z)
	inX := func(x int) bool { return xlo <= x && x <= xhi }
	inY := func(y int) bool { return ylo <= y && y <= yhi }
	for z := b.Min.Z; z <= b.Max.Z; z++ {
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			if zlo <= z && z <= zhi || inY(y) { // the whole row leads
				for x := b.Min.X; x <= b.Max.X; x++ {
					if blocked(grid.Cell{X: x, Y: y, Z: z}) {
						return true
					}
				}
				continue
			}
			for x := max(xlo, b.Min.X); x <= min(xhi, b.Max.X); x++ { // only the row's cells in the x slab
				if inX(x) && blocked(grid.Cell{X: x, Y: y, Z: z}) {
					return true
				}
			}
		}
	}
	return false
}

// leavesBounds reports whether the step of a creature from the space from to the space to
// meets the edge of the bounds b (SPEC §3.7) **[engine]**: on an axis it moves along, its leading
// side passes the bounds' face in the direction it moves. For a creature within the bounds
// that is its leaving them; one partly outside them (two levels tall on a board bounded to z
// 0 … 0) still moves along them, and back into them.
func leavesBounds(b *Bounds, from, to grid.Space) bool {
	lo, hi := to.Min(), to.Max()
	d := to.Anchor.Sub(from.Anchor)
	for _, a := range [3]struct{ d, lo, hi, min, max int }{{d.X, lo.X, hi.X, b.Min[0], b.Max[0]}, {d.Y, lo.Y, hi.Y, b.Min[1], b.Max[1]},
		{d.Z, lo.Z, hi.Z, b.Min[2], b.Max[2]}} {
		if a.d > 0 && a.hi > a.max || a.d < 0 && a.lo < a.min {
			return true
		}
	}
	return false
}

// addsSolid reports whether a solid cell lies in next outside prev, the box of the square
// before (none when moved is false: then in all of next). The cells next adds are the layers
// on its leading side along each axis it moved on (a step moves at most one cell per axis).
func addsSolid(t *terrain, next, prev grid.Box, moved bool) bool {
	if !moved {
		return anySolid(t, next)
	}
	x, y, z := next, next, next
	leading(&x.Min.X, &x.Max.X, prev.Min.X)
	leading(&y.Min.Y, &y.Max.Y, prev.Min.Y)
	leading(&z.Min.Z, &z.Max.Z, prev.Min.Z)
	return anySolid(t, x) || anySolid(t, y) || anySolid(t, z)
}

// leading narrows the range lo … hi of a space on one axis to the layer a step from a space
// whose range began at from adds there: its end in the step's direction, or none.
func leading(lo, hi *int, from int) {
	switch {
	case *lo > from:
		*lo = *hi
	case *lo < from:
		*hi = *lo
	default:
		*hi = *lo - 1 // none
	}
}

// anySolid reports whether a solid cell lies in b. The board's Empty answers for whole tiles
// of columns, so a box it cannot clear is halved across its wider side until it can, or is a
// few columns that are read cell by cell: a step's layer beside obstacles that share its
// tiles is read where they are, not whole (a 1 000-square diagonal push along two rows of
// obstacles read 2 × 10⁷ cells).
func anySolid(t *terrain, b grid.Box) bool {
	if b.Empty() || t.Empty(b) {
		return false
	}
	nx, ny := b.Max.X-b.Min.X+1, b.Max.Y-b.Min.Y+1
	if nx*ny > 4 {
		l, r := b, b
		if nx >= ny {
			l.Max.X = b.Min.X + nx/2 - 1
			r.Min.X = l.Max.X + 1
		} else {
			l.Max.Y = b.Min.Y + ny/2 - 1
			r.Min.Y = l.Max.Y + 1
		}
		return anySolid(t, l) || anySolid(t, r)
	}
	for c := b.Min; c.Z <= b.Max.Z; c.Z++ {
		for c.Y = b.Min.Y; c.Y <= b.Max.Y; c.Y++ {
			for c.X = b.Min.X; c.X <= b.Max.X; c.X++ {
				if t.Fill(c) > 0 {
					return true
				}
			}
		}
	}
	return false
}
