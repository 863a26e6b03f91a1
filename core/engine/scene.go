package engine

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/template"
)

// A setup is an evaluate request whose fields are valid, with its rule set decided and its
// template placed and measured: everything but the board, which is read once the setup
// knows where to look (window).
type setup struct {
	req    *Request
	shape  template.Shape
	prof   profile
	caster *entity // nil: no caster
	bounds *Bounds // the board's bounds, min ≤ max on every axis; nil: none
	at     placement
	foot   footprint
	w      *budget    // the work reckoned so far (SPEC §8.3)
	sel    *selection // targeting.ids as a set, made when first asked (allowed)
	board  *Scene     // the board, read before; nil: the request's
}

// A scene is a setup with the board read: the obstacles indexed and the tokens that may be
// targets, inside a view. Every rule is computed from it and nothing changes it.
type scene struct {
	setup
	tokens  []entity
	solids  *terrain
	visible bool // the caster has line of effect to the origin square (checkPlacement)
}

// A view is the part of the board a request reads: the tokens that may be targets, and the
// box of cells the obstacle index answers for (nil: all of them).
type view struct {
	tokens []entity
	box    *grid.Box
	walls  *grid.Box // the box the walls are indexed for, inside box (nil: all of them)
}

// setupOf validates req up to its obstacles, decides its rule set (SPEC §6) and places its
// template (§2.9, §3.1–§3.6). The order of the checks is the order of the errors a request
// gets. With an error, the setup is incomplete.
func setupOf(req *Request, on *Scene) (s setup, _ *Error) {
	if req == nil {
		return s, newError(CodeBadRequest, "request is required")
	}
	if on != nil {
		if e := noBoard(req); e != nil {
			return s, e
		}
	}
	s.w, s.sel = &budget{}, &selection{}
	shape, e := shapeOf(req.Template)
	if e != nil {
		return s, e
	}
	s.req, s.shape = req, shape
	if s.prof, e = profileOf(req, shape); e != nil {
		return s, e
	}
	if e = checkTrait(req.Targeting.Trait); e != nil {
		return s, e
	}
	if !validMetric(req.Metric) {
		return s, newError(CodeBadRequest, "metric: expected chebyshev, alternating, manhattan or euclidean, got "+num.Quote(string(req.Metric)))
	}
	// A range is held to its limits with a caster or without one (then nothing measures it).
	if r := req.Range; r.Kind == RangeSquares && (r.Squares < 0 || r.Squares > template.MaxDim) {
		return s, newError(CodeBadRequest, "range: expected 0 … "+num.Itoa(template.MaxDim)+", got "+num.Itoa(r.Squares))
	}
	if req.Caster != nil {
		c, e := entityOf(field("caster"), req.Caster)
		if e != nil {
			return s, e
		}
		s.caster = &c
	}
	s.board, s.bounds = on, req.Bounds
	if on != nil {
		if e = on.casterClash(req.Caster); e != nil {
			return s, e
		}
		s.bounds = on.bounds
		if e = oneWay(on.walls, s.prof.rules.String()); e != nil {
			return s, e
		}
	} else {
		if e = checkTokens(req.Tokens, req.Caster, nil); e != nil {
			return s, e
		}
		if e = checkBounds(req.Bounds); e != nil {
			return s, e
		}
	}
	if s.at, e = place(req, shape, s.caster); e != nil {
		return s, e
	}
	s.foot = measure(shape, s.at.Placement)
	return s, nil
}

// boardTokens is how many tokens the board of a request holds: its own, or its scene's (on).
func boardTokens(req *Request, on *Scene) int {
	if on != nil {
		return len(on.tokens)
	}
	return len(req.Tokens)
}

// boardEntity is token i of that board, validated (the request's were checked before).
func boardEntity(req *Request, on *Scene, i int) entity {
	if on != nil {
		return on.ents[i]
	}
	e, _ := entityOf(label{"tokens", i}, &req.Tokens[i]) // checked
	return e
}

func checkBounds(b *Bounds) *Error {
	if b == nil {
		return nil
	}
	for a, name := range [3]string{"x", "y", "z"} {
		if b.Min[a] > b.Max[a] {
			return newError(CodeBadRequest, "bounds: min "+name+" "+num.Itoa(b.Min[a])+" is past max "+name+" "+num.Itoa(b.Max[a]))
		}
	}
	return nil
}

// window is the view an evaluation needs: the tokens whose space meets the area's box, and
// the box of cells the board must answer for. Line of effect and cover only look along
// segments between points inside the area's cells, the caster's space, the origin square and
// those tokens' spaces (centres and inset corners, never on a cell's surface), and at the
// cells around such points: the box of those cells holds all of them. It is widened by 2
// cells anyway, so that a Regions query (which looks one cell past a segment's ends) reads
// real solids there, and as slack. On a 500 × 500 board with 20 000 obstacles, indexing only
// this window takes a fraction of the time and memory of indexing everything.
// TestWindow_SameAnswerAsWholeBoard holds it to that. When the shape is past the limits (an
// error to come), the view is the whole board.
func (s *setup) window() view {
	all := !s.foot.ok()
	w := grid.Box{Min: s.at.Origin, Max: s.at.Origin}.Union(grid.Box{Min: s.at.square, Max: s.at.square})
	if s.caster != nil {
		w = w.Union(s.caster.space.Box())
	}
	// Walls only block segments. Where nothing shapes the area (no barriers, or a Draw Steel
	// wall), no segment goes to the area's cells: only to the origin square and to the tokens'
	// spaces, so the walls that matter are those near them, not near the whole area.
	_, isWall := s.shape.(template.Wall)
	areaLines := s.prof.barriers && !isWall
	ww := w
	if s.foot.count > 0 {
		w = w.Union(s.foot.box)
	}
	var near []entity
	for i, n := 0, boardTokens(s.req, s.board); i < n; i++ {
		e := boardEntity(s.req, s.board, i)
		if eb := e.space.Box(); all || s.foot.count > 0 && s.foot.box.Meets(eb) {
			near = append(near, e)
			w, ww = w.Union(eb), ww.Union(eb)
		}
	}
	if all {
		return view{tokens: near}
	}
	const margin = 2
	w = w.Grow(margin)
	if areaLines {
		return view{tokens: near, box: &w, walls: &w}
	}
	ww = ww.Grow(margin)
	return view{tokens: near, box: &w, walls: &ww}
}

// sceneIn validates the obstacles and the walls and indexes those inside v; or, for a
// Scene's evaluate, takes the scene's board, its obstacles indexed whole and its walls as
// Evaluate indexes them (Scene.terrainFor).
func (s *setup) sceneIn(v view) (*scene, *Error) {
	if s.board != nil {
		return &scene{setup: *s, tokens: v.tokens, solids: s.board.terrainFor(v.walls)}, nil
	}
	in, e := checkObstacles(s.req.Obstacles, v.box)
	if e != nil {
		return nil, e
	}
	ws, e := checkWalls(s.req.Walls, v.walls)
	if e != nil {
		return nil, e
	}
	if e = oneWay(s.req.Walls, s.prof.rules.String()); e != nil {
		return nil, e
	}
	return &scene{setup: *s, tokens: v.tokens, solids: terrainOf(indexObstacles(s.req.Obstacles, in), ws)}, nil
}
