package engine

import (
	"github.com/aoekit/aoekit/core/cover"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/template"
)

// A placement is where a template lies on the board: its origin, its origin square and the
// space its line of effect and cover are traced from (SPEC §2.9, §3.1–§3.6).
type placement struct {
	// The template's placement, from which the shape draws its cells; Origin is the origin
	// cell: a circle's centre, a rectangle's anchor, a cone's or line's source, a cube's
	// north-west lowest cell, a Draw Steel line's or wall's first square (§2.9, §3.1).
	template.Placement
	// square is the origin square, to which range and the caster's line of effect are judged
	// (§2.9, §3.1): the origin, or the cube's chosen or nearest square (§3.4).
	square grid.Cell
	// fromSelf is set when the area is centred on the caster's space (aura, burst: §3.3).
	fromSelf bool
	// from is what line of effect to the area's cells is traced from (§3.2): the origin
	// square, or the caster's space when fromSelf.
	from grid.Space
	// src is the point cover is judged from (§5.4): the centre of from (see centre).
	src los.Point
}

// place finds the origin and the placement of the template (SPEC §2.9, §3.1, §3.3–§3.6) from
// the request's origin, path, aim and orientation and the validated caster (nil: none). It
// checks the fields it reads, not the rules that need the board (see checkPlacement). With an
// error, the placement is incomplete (returned as it stands: zeroing it costs module size).
func place(req *Request, shape template.Shape, caster *entity) (at placement, _ *Error) {
	if caster != nil {
		at.Facing = caster.facing
		at.Caster = caster.space
	}
	name, text := "orientation", req.Orientation
	if o := req.Template.Object; text == "" && o != nil {
		name, text = "template.orientation", o.Orientation
	}
	if text != "" {
		d, ok := grid.ParseDir(text)
		if !ok || d.Diagonal() {
			return at, newError(CodeBadRequest, name+": expected N, E, S or W, got "+num.Quote(text))
		}
		at.Orientation = d
	}
	var origin *grid.Cell
	if req.Origin != nil {
		c := cellAt(*req.Origin)
		if e := checkCoord(field("origin"), c.X, c.Y, c.Z); e != nil {
			return at, e
		}
		origin = &c
	}
	var path []grid.Cell
	if req.Path != nil {
		var e *Error
		if path, e = pathOf("path", req.Path); e != nil {
			return at, e
		}
	}
	casterCell := func() grid.Cell { return caster.space.Anchor }
	switch s := shape.(type) {
	case template.Circle, template.Rect, template.Cube:
		switch {
		case origin != nil:
			at.Origin = *origin
		case caster != nil:
			at.Origin = casterCell()
		default:
			return at, newError(CodeBadRequest, "origin is required for a "+s.Kind()+" (or a caster to centre it on)")
		}
	case template.Circle50:
		switch {
		case s.Close:
			if e := needCaster(caster, "a close circle"); e != nil {
				return at, e
			}
			at.Origin = casterCell()
		case origin != nil:
			at.Origin = *origin
		case caster != nil:
			at.Origin = casterCell()
		default:
			return at, newError(CodeBadRequest, "origin is required for a circle (or a caster to centre it on)")
		}
	case template.Cone, template.Line:
		if e := needCaster(caster, "a "+s.Kind()+": it projects from the caster"); e != nil {
			return at, e
		}
		at.Origin = casterCell()
		if origin != nil {
			at.Origin = *origin
		}
	case template.Aura, template.Burst:
		if e := needCaster(caster, "an "+s.Kind()); e != nil {
			return at, e
		}
		at.Origin, at.fromSelf = casterCell(), true
	case template.DSLine:
		switch {
		case len(path) > 0:
			if len(path) != s.Length {
				return at, newError(CodeBadRequest, "path: a "+s.String()+" needs "+num.Itoa(s.Length)+" squares, got "+num.Itoa(len(path)))
			}
			if err := template.Straight(path); err != nil {
				return at, templateError("path", err)
			}
			at.Origin = path[0]
		case origin == nil:
			return at, newError(CodeBadRequest, "origin (the line's first square) and aim, or path, are required for a Draw Steel line")
		case req.Aim == nil:
			return at, newError(CodeBadRequest, "aim is required for a Draw Steel line without a path")
		default:
			at.Origin = *origin
			at.Aim = cellAt(*req.Aim)
			if e := checkCoord(field("aim"), at.Aim.X, at.Aim.Y, at.Aim.Z); e != nil {
				return at, e
			}
			if at.Aim == at.Origin {
				return at, newError(CodeBadRequest, "aim: the line points nowhere: aim is its origin "+cellText(at.Origin))
			}
		}
	case template.Wall:
		if len(path) == 0 {
			return at, newError(CodeBadRequest, "path is required for a wall: the squares it is built of")
		}
		if len(path) > s.Squares { // name the first square too many (SPEC §3.6)
			return at, newError(CodeInvalidWall, "path: square "+num.Itoa(s.Squares+1)+" "+cellText(path[s.Squares])+" is one too many: a "+s.String()+" has "+num.Itoa(s.Squares)+" squares, the path lists "+num.Itoa(len(path)))
		}
		if err := template.FaceConnected(path); err != nil {
			return at, templateError("path", err)
		}
		at.Origin = path[0]
	}
	at.Path = path
	at.square = at.Origin
	if c, ok := shape.(template.Cube); ok {
		cube := c.Space(at.Origin)
		switch {
		case req.OriginSquare != nil:
			at.square = cellAt(*req.OriginSquare)
			if !cube.Contains(at.square) {
				return at, newError(CodeBadRequest, "originSquare: "+cellText(at.square)+" is not a square of the cube")
			}
		case caster != nil:
			at.square = c.OriginSquare(at.Origin, caster.space)
		}
	}
	at.from = grid.Unit(at.square)
	if at.fromSelf {
		at.from = caster.space
	}
	at.src = centre(at.from)
	return at, nil
}

func needCaster(caster *entity, what string) *Error {
	if caster == nil {
		return newError(CodeBadRequest, "caster is required for "+what)
	}
	return nil
}

// centre is the centre of a space on the 1/400 lattice. The point cover is judged from, for
// every target, is the centre of placement.from (SPEC §5.4: the centre of the area's origin
// cell). For an area centred on the caster (aura, burst) the origin is the caster's space
// (SPEC §3.2) and the SPEC names no single cell of it: the point is the centre of that space,
// "the caster, who is at its centre" (SPEC §3.1). For a one-square caster that is its cell's
// centre. (A nearest-cell rule would need a tie-break between equally near cells, and any
// fixed tie-break, such as one from the anchor, makes the answer change when the board is
// turned.)
func centre(sp grid.Space) los.Point {
	lo, hi := sp.Min(), sp.Max() // the centre on each axis: (lo + hi + 1) / 2 cells
	return los.Point{
		X: int64(lo.X+hi.X+1) * los.Unit / 2,
		Y: int64(lo.Y+hi.Y+1) * los.Unit / 2,
		Z: int64(lo.Z+hi.Z+1) * los.Unit / 2,
	}
}

// checkPlacement applies the rules of walls (SPEC §3.6), then range and "within" (§2.9, §3.1)
// and line of effect (§3.1) to the origin square.
func (sc *scene) checkPlacement() *Error {
	if e := sc.checkWall(); e != nil {
		return e
	}
	if sc.caster == nil || sc.at.fromSelf {
		return nil
	}
	if e := sc.checkRange(); e != nil {
		return e
	}
	if e := sc.w.charge(sc.cellWork(sc.caster.space, sc.at.square, sc.prof.segments(sc.caster.space)), "line of effect to the origin square (SPEC §3.1): use a nearer origin or a smaller caster"); e != nil {
		return e
	}
	if sc.visible = sc.seesOrigin(); !sc.visible && sc.prof.rules == template.DrawSteel { // §3.1: Draw Steel only (§6)
		return newError(CodeNoLineOfEffect, "the caster has no line of effect to the origin square "+cellText(sc.at.square))
	}
	return nil
}

// checkWall refuses a wall standing in an obstacle or an entity's space (SPEC §3.6).
func (sc *scene) checkWall() *Error {
	if _, ok := sc.shape.(template.Wall); !ok {
		return nil
	}
	for i, c := range sc.at.Path {
		if sc.solids.Fill(c) > 0 {
			return newError(CodeInvalidWall, "path: square "+num.Itoa(i+1)+" "+cellText(c)+" is an obstacle")
		}
		if sc.caster != nil && sc.caster.space.Contains(c) {
			return newError(CodeInvalidWall, "path: square "+num.Itoa(i+1)+" "+cellText(c)+" is occupied by the caster")
		}
		for _, t := range sc.tokens {
			if t.space.Contains(c) {
				return newError(CodeInvalidWall, "path: square "+num.Itoa(i+1)+" "+cellText(c)+" is occupied by "+t.tok.ID)
			}
		}
	}
	return nil
}

// checkRange holds the origin square to the request's range (SPEC §2.9), or to the template's
// "within" when the request gives none (§3.1), measured by the request's metric (§8.2).
func (sc *scene) checkRange() *Error {
	rng, kind := sc.req.Range.Squares, sc.req.Range.Kind
	within := 0
	switch s := sc.shape.(type) {
	case template.Cube:
		within = s.Within
	case template.DSLine:
		within = s.Within
	case template.Wall:
		within = s.Within
	}
	if within > 0 && kind == "" {
		rng, kind = within, "squares"
	}
	switch kind {
	case "":
	case "self":
		if !sc.caster.space.Contains(sc.at.square) {
			return newError(CodeOutOfRange, "origin "+cellText(sc.at.square)+" is not the caster's own square (range self)")
		}
	case "touch", "squares":
		if kind == "touch" {
			rng = 1
		}
		if rng < 0 || rng > template.MaxDim {
			return newError(CodeBadRequest, "range: expected 0 … "+num.Itoa(template.MaxDim)+", got "+num.Itoa(rng))
		}
		if d := metricDist(sc.req.Metric, sc.caster.space, grid.Unit(sc.at.square)); d > rng {
			return newError(CodeOutOfRange, "origin "+cellText(sc.at.square)+" is "+num.Itoa(d)+" squares from the caster; the range is "+num.Itoa(rng))
		}
	default:
		return newError(CodeBadRequest, "range: expected a number of squares, \"self\" or \"touch\"")
	}
	return nil
}

// seesOrigin reports whether the caster has line of effect to the origin square, of the
// request's rule set (SPEC §5.3): Draw Steel's from any corner of its space to any corner of
// the square, TDGS's centre to centre from its cell nearest the square. The 50 % circle,
// whose cover is judged as TDGS's (§6), sees as TDGS does.
func (sc *scene) seesOrigin() bool {
	if sc.prof.cornerLines() {
		return cover.CornerLine(sc.caster.space, grid.Unit(sc.at.square), &sc.solids.lines)
	}
	return cover.CentreLine(sc.caster.space.Nearest(sc.at.square), sc.at.square, &sc.solids.lines)
}
