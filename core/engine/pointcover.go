package engine

import (
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/spread"
)

// Cover of the point-origin rule sets: dnd5e's corner lines (SPEC §10.8) and pf2e's centre
// line (§11.5), for an area's targets and for the cover door.

// A blocker is another creature's space, which gives cover in dnd5e (§10.8) and pf2e (§11.5).
type blocker struct {
	box grid.Box
	id  string
}

// A crowd is a terrain with the creatures in it made solid, for one target's lines (SPEC
// §10.8): every blocker's space, as tall as its height, but the one whose id is skip (the
// target's). The attacker, and the caster against its own area, are never among the
// blockers. It is a los.Solids with Regions and Walls.
type crowd struct {
	t     *terrain
	all   []blocker
	near  []blocker // those of all that meet the box of one target's lines, but skip's (focus)
	skip  string
	lines los.Prepared
}

func newCrowd(t *terrain, all []blocker) *crowd {
	c := &crowd{t: t, all: all}
	c.lines = los.Prepare(c)
	return c
}

// focus keeps the blockers that meet box (the box of one target's lines, grown by a cell), but
// the one whose id is skip: the lines of that target look at those alone. It reads every
// blocker once, reckoned by the caller.
func (c *crowd) focus(box grid.Box, skip string) {
	c.skip, c.near = skip, c.near[:0]
	for i := range c.all {
		if b := &c.all[i]; b.id != skip && b.box.Meets(box) {
			c.near = append(c.near, *b)
		}
	}
}

// Fill is the terrain's fill, or a full block inside a blocker.
func (c *crowd) Fill(cell grid.Cell) int {
	for i := range c.near {
		if c.near[i].box.Contains(cell) {
			return los.Unit
		}
	}
	return c.t.Fill(cell)
}

// Empty reports whether no solid, and no blocker, is in the box b.
func (c *crowd) Empty(b grid.Box) bool {
	for i := range c.near {
		if c.near[i].box.Meets(b) {
			return false
		}
	}
	return c.t.Empty(b)
}

// WallBlocked is the terrain's.
func (c *crowd) WallBlocked(a, b los.Point) bool { return c.t.WallBlocked(a, b) }

// through reports whether the segment p → q passes through the interior of a blocker's space
// other than skip's (pf2e's lesser cover, SPEC §11.5).
func (c *crowd) through(p, q los.Point) bool {
	for i := range c.near {
		if segmentMeetsInterior(p, q, c.near[i].box) {
			return true
		}
	}
	return false
}

// segmentMeetsInterior reports whether some point of the closed segment p → q lies in the
// open box of the cells of b, exactly: the parameters t with lo < p + t·d < hi on every axis
// form an open interval (A, B), which meets [0, 1] when A < B, A < 1 and B > 0.
func segmentMeetsInterior(p, q los.Point, b grid.Box) bool {
	P := [3]int64{p.X, p.Y, p.Z}
	D := [3]int64{q.X - p.X, q.Y - p.Y, q.Z - p.Z}
	lo := [3]int64{int64(b.Min.X) * los.Unit, int64(b.Min.Y) * los.Unit, int64(b.Min.Z) * los.Unit}
	hi := [3]int64{int64(b.Max.X+1) * los.Unit, int64(b.Max.Y+1) * los.Unit, int64(b.Max.Z+1) * los.Unit}
	an, ad := int64(-1), int64(1) // A = an/ad (−1: below every t of the segment)
	bn, bd := int64(2), int64(1)  // B
	for i := range 3 {
		if D[i] == 0 {
			if P[i] <= lo[i] || P[i] >= hi[i] {
				return false
			}
			continue
		}
		l, h, d := lo[i]-P[i], hi[i]-P[i], D[i]
		if d < 0 {
			l, h, d = -h, -l, -d
		}
		if l*ad > an*d {
			an, ad = l, d
		}
		if h*bd < bn*d {
			bn, bd = h, d
		}
	}
	return an*bd < bn*ad && an < ad && bn > 0
}

// crowdOf is the crowd for an area's targets: every token near the area (the caster never).
func (sc *pointScene) crowdOf() *crowd {
	if !sc.cover {
		return nil
	}
	hull := sc.box.Union(grid.Box{Min: sc.src.Cell(), Max: sc.src.Cell()})
	for i := range sc.tokens {
		hull = hull.Union(sc.tokens[i].space.Box())
	}
	hull = hull.Grow(1)
	n := boardTokens(sc.req, sc.board)
	var all []blocker
	if sc.board != nil { // a scene's tokens: counted first
		all = make([]blocker, 0, sceneMeeting(sc.board, hull))
	}
	for i := range n {
		if e := boardEntity(sc.req, sc.board, i); e.space.Box().Meets(hull) {
			all = append(all, blocker{box: e.space.Box(), id: e.tok.ID})
		}
	}
	sc.w.charge(n, coverWork) // each token read once for the crowd
	return newCrowd(sc.solids, all)
}

// A judgement is one target's cover.
type judgement struct {
	grade   Grade
	bonus   int
	blocked int
	lines   []Line
	from    grid.Cell // the attacker's cell whose corner was chosen (dnd5e attacks)
}

// judge is the cover of entity e against an area whose source is src (SPEC §10.8, §11.5); the
// crowd skips e.
func (sc *pointScene) judge(src los.Point, e *entity, cr *crowd) judgement {
	if sc.w.charge(len(cr.all), coverWork) != nil {
		return judgement{}
	}
	cr.focus(e.space.Box().Union(grid.Box{Min: src.Cell(), Max: src.Cell()}).Grow(1), e.tok.ID)
	if sc.shape.Rules == spread.PF2e {
		return judgePF2e([]los.Point{src}, nil, e, cr, sc.solids, sc.w)
	}
	return judge5e([]los.Point{src}, nil, e.space, cr, sc.crowd, sc.solids, sc.w)
}

const coverWork = "cover (SPEC §10.8, §11.5): use fewer or smaller tokens, or cover \"none\""

// judge5e is SPEC §10.8: for each source point (an attacker's inset corners, with the cells
// they belong to in cells; or an area's one source) and each cell of the target's space, the
// 8 lines to that cell's inset corners; the choice that leaves the fewest blocked counts,
// once on the terrain alone and once with the creatures of cr made solid, graded by how
// creatures give cover (mode). The lines answered are the best choice's, with the creatures
// unless mode is none.
func judge5e(srcs []los.Point, cells []grid.Cell, target grid.Space, cr *crowd, mode CreatureCover, t *terrain, w *budget) judgement {
	tb := target.Box()
	span := 0
	for _, p := range srcs {
		c := p.Cell()
		span = max(span, max(num.Abs(c.X-tb.Min.X), num.Abs(c.X-tb.Max.X))+max(num.Abs(c.Y-tb.Min.Y), num.Abs(c.Y-tb.Max.Y))+max(num.Abs(c.Z-tb.Min.Z), num.Abs(c.Z-tb.Max.Z))+3)
	}
	passes := 2
	if mode == CreatureNone {
		passes = 1
	}
	// Each line is set up and walked (segCost + span), and each cell it crosses asks every near
	// blocker.
	if w.charge(len(srcs)*target.Count()*8*passes*(segCost+span*(1+len(cr.near))), coverWork) != nil || w.chargeLines(8) != nil {
		return judgement{}
	}
	minT, minA, bestK, bestC := 9, 9, 0, grid.Cell{}
	var best [8]bool
	for k, p := range srcs {
		target.Cells(func(c grid.Cell) {
			if minT == 0 && minA == 0 {
				return
			}
			bt, ba := 0, 0
			var bl [8]bool
			for i := range 8 {
				q := insetCorner(c, i)
				b := t.lines.OpenBlocked(p, q)
				if b {
					bt++
				}
				if mode != CreatureNone {
					b = cr.lines.OpenBlocked(p, q)
					if b {
						ba++
					}
				}
				bl[i] = b
			}
			if mode == CreatureNone {
				ba = bt
			}
			minT = min(minT, bt)
			if ba < minA {
				minA, best, bestK, bestC = ba, bl, k, c
			}
		})
	}
	g := grade5e(minT)
	switch mode {
	case CreatureFull:
		g = grade5e(minA)
	case CreatureHalf:
		g = max(g, min(1, grade5e(minA)))
	}
	j := judgement{grade: [4]Grade{GradeNone, GradeHalf, GradeThreeQuarters, GradeTotal}[g], bonus: [4]int{0, 2, 5, 0}[g], blocked: minA}
	j.lines = make([]Line, 8)
	for i := range 8 {
		j.lines[i] = Line{From: srcs[bestK].World(), To: insetCorner(bestC, i).World(), Blocked: best[i]}
	}
	if cells != nil {
		j.from = cells[bestK]
	}
	return j
}

// grade5e is SPEC §10.8's grade of b blocked lines of 8: 0 none, 1 half (f ≤ ½), 2
// three-quarters (f < 1), 3 total.
func grade5e(b int) int {
	switch {
	case b == 0:
		return 0
	case 2*b <= 8:
		return 1
	case b < 8:
		return 2
	}
	return 3
}

// judgePF2e is SPEC §11.5: one line from src[0] (the centre of the attacker's space, or an
// area's origin) to the centre of the target's space: standard cover when terrain blocks it,
// lesser when it passes through another creature, raised by Take Cover; total when no
// segment from any of srcs (an attacker's inset corners, or the origin) to any inset corner of
// any cell of the target is clear.
func judgePF2e(srcs []los.Point, centre []los.Point, e *entity, cr *crowd, t *terrain, w *budget) judgement {
	from := srcs[0]
	if centre != nil {
		from = centre[0]
	}
	to := spread.Centre(e.space)
	if w.charge(segWork(from, to)+len(cr.near), coverWork) != nil || w.chargeLines(1) != nil {
		return judgement{}
	}
	terrain := t.lines.OpenBlocked(from, to)
	creature := !terrain && cr.through(from, to)
	g := 0 // none, lesser, standard, greater
	switch {
	case terrain:
		g = 2
	case creature:
		g = 1
	}
	if e.tok.TakingCover {
		g = max(g+1, 2)
	}
	j := judgement{grade: [4]Grade{GradeNone, GradeLesser, GradeStandard, GradeGreater}[g], bonus: [4]int{0, 1, 2, 4}[g]}
	j.lines = []Line{{From: from.World(), To: to.World(), Blocked: terrain || creature}}
	if terrain || creature {
		j.blocked = 1
	}
	if terrain && !anyClear(srcs, e.space, t, w) && w.err == nil {
		j.grade, j.bonus = GradeTotal, 0
	}
	return j
}

// anyClear reports whether a segment from one of srcs to an inset corner of a cell of sp is
// clear of terrain, each reckoned before it is walked.
func anyClear(srcs []los.Point, sp grid.Space, t *terrain, w *budget) bool {
	clear := false
	for _, p := range srcs {
		sp.Cells(func(c grid.Cell) {
			for i := 0; i < 8 && !clear && w.err == nil; i++ {
				q := insetCorner(c, i)
				if w.charge(segWork(p, q), coverWork) == nil && !t.lines.OpenBlocked(p, q) {
					clear = true
				}
			}
		})
		if clear || w.err != nil {
			break
		}
	}
	return clear
}

// pointAttack is the cover door for dnd5e and pf2e (SPEC §10.8, §11.5): attacker and target
// validated, the board read around them.
func pointAttack(req *CoverRequest, r spread.Rules, att, tgt entity, solids *terrain) (*CoverResult, *Error) {
	switch req.CreatureCover {
	case "", CreatureHalf, CreatureFull, CreatureNone:
	default:
		return nil, newError(CodeBadRequest, "creatureCover: expected half, full or none, got "+num.Quote(string(req.CreatureCover)))
	}
	mode := req.CreatureCover
	if mode == "" {
		mode = CreatureHalf
	}
	var all []blocker
	for i := range req.Tokens {
		e, _ := entityOf(label{"tokens", i}, &req.Tokens[i]) // checked
		all = append(all, blocker{box: e.space.Box(), id: e.tok.ID})
	}
	cr := newCrowd(solids, all)
	// Neither the attacker nor the target is among the tokens (checked): nothing to skip.
	cr.focus(att.space.Box().Union(tgt.space.Box()).Grow(1), "")
	w := &budget{}
	// Reckoned before the corners are listed: 8 for each cell of the attacker, each judged
	// against the 8 corners of each cell of the target (SPEC §8.3).
	if n := int64(att.space.Count()) * 8 * int64(tgt.space.Count()) * 8; n > MaxWork/segCost {
		return nil, newError(CodeTooLarge, "attacker: judging this attack's cover would take "+num.Itoa(int(n))+" lines, past the work limit (SPEC §8.3): spaces too large")
	}
	var srcs []los.Point
	var cells []grid.Cell
	att.space.Cells(func(c grid.Cell) {
		for k := range 8 {
			srcs = append(srcs, insetCorner(c, k))
			cells = append(cells, c)
		}
	})
	var j judgement
	if r == spread.PF2e {
		j = judgePF2e(srcs, []los.Point{spread.Centre(att.space)}, &tgt, cr, solids, w)
		j.from = att.space.Anchor
	} else {
		j = judge5e(srcs, cells, tgt.space, cr, mode, solids, w)
	}
	if w.err != nil {
		return nil, w.err
	}
	return &CoverResult{Grade: j.grade, Bonus: j.bonus, Blocked: j.blocked, Total: len(j.lines),
		LineOfEffect: j.grade != GradeTotal, From: cell32(j.from), Lines: j.lines}, nil
}
