package engine

import (
	"slices"
	"sync/atomic"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/walls"
)

// Board is a board on its own (CONTRACT scene): the tokens, obstacles, thin walls and bounds
// an evaluate request carries, kept by a Scene between evaluations.
//
//wire:want a board object
type Board struct {
	Tokens    []Token    `json:"tokens,omitempty"`
	Obstacles []Obstacle `json:"obstacles,omitempty"`
	Walls     []Wall     `json:"walls,omitempty"`
	Bounds    *Bounds    `json:"bounds,omitempty"`
}

// SceneEdit is a change to a scene's board (CONTRACT scene). Its parts apply in this order:
// `remove`, `tokens`, `clear`, `obstacles`, `walls`, `bounds`. Either all of it applies or,
// with an error, none.
//
// In Go, nil Walls leaves the walls as they are and a non-nil empty Walls removes them all;
// a nil Bounds leaves the bounds unless NoBounds is set.
//
//wire:want a scene edit object
type SceneEdit struct {
	// The ids of tokens taken off the board.
	Remove []string `json:"remove,omitempty"`
	// Tokens put on the board: a token whose id is on it already replaces it where it stands in
	// the list (a move); the others join the end.
	Tokens []Token `json:"tokens,omitempty"`
	// Cells made empty.
	Clear [][3]int `json:"clear,omitempty"`
	// Cells made solid, or given a new fill (a cell listed twice takes the larger, as in a board).
	Obstacles []Obstacle `json:"obstacles,omitempty"`
	// When present, every thin wall of the board, replacing the ones before (`[]` removes
	// them all).
	Walls []Wall `json:"walls,omitempty"`
	// When present, the new bounds.
	Bounds *Bounds `json:"bounds,omitempty"`
	// Takes the bounds away.
	NoBounds bool `json:"noBounds,omitempty"`
}

// A Scene is a board validated and indexed once and kept between evaluations: the stateful
// way to evaluate many templates against one board, as a dragged template does every frame
// (CONTRACT scene). Scene.Evaluate answers exactly as Evaluate does for the same request with
// the scene's board in it (Scene.Board gives it back); it skips reading the board again, and
// indexes again only the walls near a new request's area. Past the work limit (SPEC §8.3) it
// refuses as Evaluate does, but where obstacles lie outside the area's window (more than 2
// squares from the area, the caster and the tokens in it): Evaluate indexes only those inside
// it, and the whole board's index, whose tiles are coarser and whose levels span more, may
// reckon more work.
// Evaluate and Board may run at once from several goroutines; Update must run alone.
type Scene struct {
	tokens []Token              // in board order
	ents   []entity             // tokens validated, parallel to tokens
	ids    map[string]int       // token id → index in tokens
	cells  map[grid.Cell]uint16 // solid cells → fill in lattice units (1 … 400)
	walls  []Wall               // as given
	bounds *Bounds
	solids *terrain   // cells and closed walls indexed
	boxes  []planeBox // the boxes of the closed walls' ends, in board order (terrainFor)
	// The last window's terrain (terrainFor), for any goroutine's Evaluate.
	windowed atomic.Pointer[windowedTerrain]
}

// A windowedTerrain is a scene's terrain with its walls indexed for one window.
type windowedTerrain struct {
	window grid.Box
	base   *terrain // the scene's terrain it was made from
	t      *terrain
}

// terrainFor is the scene's terrain with its walls indexed as Evaluate indexes a request's for
// the box of cells window (checkWalls): only the closed walls whose box meets it. The answers
// are the same either way, but the work an evaluation reckons (SPEC §8.3) reads the wall
// index's tiles, which the walls' extent sizes: indexed whole, a board's far walls widened
// them, and near the limit a scene refused what Evaluate answered. The last window's is kept:
// a dragged template's frames mostly share one. (The obstacles stay indexed whole. Empty's
// tiles depend on them too, but indexing a window's obstacles again cost a drag's frame on a
// large map up to 160 ms, against 19 µs: see Scene's doc.)
func (s *Scene) terrainFor(window *grid.Box) *terrain {
	t := s.solids
	if window == nil || t.walls.Len() == 0 {
		return t
	}
	if c := s.windowed.Load(); c != nil && c.base == t && c.window == *window {
		return c.t
	}
	win := windowOf(window)
	all := t.walls.Walls() // the closed walls, in board order, as s.boxes
	n := 0                 // counted first: a list grown by append copied them over and over (a fifth of a dragged frame)
	for k := range s.boxes {
		if win.meetsBox(s.boxes[k]) {
			n++
		}
	}
	in := make([]walls.Wall, 0, n)
	for k := range s.boxes {
		if win.meetsBox(s.boxes[k]) {
			in = append(in, all[k])
		}
	}
	wt := t
	if len(in) < len(all) {
		wt = &terrain{Solids: t.Solids, walls: walls.New(in)}
		wt.lines = los.Prepare(wt)
	}
	s.windowed.Store(&windowedTerrain{window: *window, base: t, t: wt})
	return wt
}

// NewScene validates b (as Evaluate validates a request's board, SPEC §8.3) and indexes it.
func NewScene(b *Board) (*Scene, error) {
	s := &Scene{ids: map[string]int{}, cells: map[grid.Cell]uint16{}}
	if b == nil {
		b = &Board{}
	}
	edit := SceneEdit{Tokens: b.Tokens, Obstacles: b.Obstacles, Walls: b.Walls, Bounds: b.Bounds}
	if edit.Walls == nil {
		edit.Walls = []Wall{}
	}
	if err := s.apply(&edit, true); err != nil {
		return nil, err
	}
	return s, nil
}

// Update applies an edit. With an error (*Error), the scene is as it was.
func (s *Scene) Update(e *SceneEdit) error {
	if e == nil {
		return nil
	}
	if err := s.apply(e, false); err != nil {
		return err
	}
	return nil
}

// Board is the scene's board as a request carries it: the tokens in board order, the solid
// cells sorted by z, then y, then x (each fill n/400), the walls and the bounds. The slices
// are new; the tokens, walls and bounds are copies.
func (s *Scene) Board() Board {
	b := Board{Tokens: slices.Clone(s.tokens), Walls: slices.Clone(s.walls)}
	if s.bounds != nil {
		bb := *s.bounds
		b.Bounds = &bb
	}
	cells := make([]grid.Cell, 0, len(s.cells))
	for c := range s.cells {
		cells = append(cells, c)
	}
	slices.SortFunc(cells, grid.Compare)
	for _, c := range cells {
		b.Obstacles = append(b.Obstacles, Obstacle{X: c.X, Y: c.Y, Z: c.Z, Fill: float64(s.cells[c]) / board.Full})
	}
	return b
}

// Evaluate answers req against the scene's board (CONTRACT scene). The request carries no
// board of its own: tokens, obstacles, walls or bounds in it are a bad_request.
func (s *Scene) Evaluate(req *Request) (*Result, error) { return s.EvaluateContext(nil, req) }

// EvaluateContext is Evaluate watching ctx, as the package's EvaluateContext does.
func (s *Scene) EvaluateContext(ctx Context, req *Request) (*Result, error) {
	res, err := evaluateOn(ctx, req, s)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// noBoard refuses a scene request that carries a board.
func noBoard(req *Request) *Error {
	for _, f := range [4]struct {
		name string
		set  bool
	}{{"tokens", req.Tokens != nil}, {"obstacles", req.Obstacles != nil}, {"walls", req.Walls != nil}, {"bounds", req.Bounds != nil}} {
		if f.set {
			return newError(CodeBadRequest, f.name+": a scene's request takes the board from the scene; change it with the scene's update")
		}
	}
	return nil
}

// casterClash reports the error Evaluate gives when a token of the board has the caster's id.
func (s *Scene) casterClash(caster *Token) *Error {
	if caster == nil || caster.ID == "" {
		return nil
	}
	if i, ok := s.ids[caster.ID]; ok {
		return newError(CodeBadRequest, label{"tokens", i}.String()+".id: "+num.Quote(caster.ID)+" is also the caster's id")
	}
	return nil
}

// apply validates the edit whole, then applies it (fresh: the scene is new, and its board's
// errors name the fields of a request).
func (s *Scene) apply(e *SceneEdit, fresh bool) *Error {
	tokens, ids, err := s.editTokens(e, fresh)
	if err != nil {
		return err
	}
	for i, c := range e.Clear {
		if err := checkCoord(label{"clear", i}, c[0], c[1], c[2]); err != nil {
			return err
		}
	}
	// The bounds are checked before the obstacles and the walls, as evaluate checks a request's.
	bounds := s.bounds
	if e.Bounds != nil { // applied before noBounds, in CONTRACT's order: checked even with it
		if err := checkBounds(e.Bounds); err != nil {
			return err
		}
		b := *e.Bounds
		bounds = &b
	}
	if e.NoBounds {
		bounds = nil
	}
	if len(e.Obstacles) > MaxObstacles {
		return newError(CodeTooLarge, "obstacles: "+num.Itoa(len(e.Obstacles))+" obstacles, past the limit of "+num.Itoa(MaxObstacles))
	}
	if _, err := checkObstacles(e.Obstacles, &grid.Box{}); err != nil { // validated only: the box lists none of interest
		return err
	}
	wallsNow := s.walls
	var closed []walls.Wall
	if e.Walls != nil {
		if closed, err = checkWalls(e.Walls, nil); err != nil {
			return err
		}
		wallsNow = slices.Clone(e.Walls)
	}
	// The cells the edit changes, with their new fills (0: cleared), and how many the board
	// will hold, before any is changed: work in proportion to the edit, not to the board (a
	// one-obstacle edit of a 249 000-obstacle scene copied them all, refused or not).
	var delta map[grid.Cell]uint16
	if len(e.Clear) > 0 || len(e.Obstacles) > 0 {
		delta = make(map[grid.Cell]uint16, len(e.Clear)+len(e.Obstacles))
		for _, c := range e.Clear {
			delta[cellOf(c)] = 0
		}
		// An edit's obstacle replaces the cell's fill; a cell the edit lists twice takes the
		// larger of its fills there, as a board's list does (SPEC §1.6).
		for i := range e.Obstacles {
			o := &e.Obstacles[i]
			delete(delta, grid.Cell{X: o.X, Y: o.Y, Z: o.Z})
		}
		for i := range e.Obstacles {
			o := &e.Obstacles[i]
			c := grid.Cell{X: o.X, Y: o.Y, Z: o.Z}
			delta[c] = max(delta[c], uint16(units(o.Fill)))
		}
		n := len(s.cells)
		for c, f := range delta {
			old, was := s.cells[c]
			switch {
			case f > 0 && !was:
				n++
			case f == 0 && was:
				n--
			case f == old || f == 0 && !was:
				delete(delta, c) // no change
			}
		}
		if n > MaxObstacles {
			return newError(CodeTooLarge, "obstacles: the board would hold "+num.Itoa(n)+" solid cells, past the limit of "+num.Itoa(MaxObstacles))
		}
	}
	// Everything is valid: apply.
	s.tokens, s.ids, s.bounds = tokens, ids, bounds
	s.ents = make([]entity, len(tokens))
	for i := range s.tokens {
		s.ents[i], _ = entityOf(label{"tokens", i}, &s.tokens[i]) // valid
	}
	for c, f := range delta {
		if f == 0 {
			delete(s.cells, c)
		} else {
			s.cells[c] = f
		}
	}
	if e.Walls != nil {
		s.walls = wallsNow
		s.boxes = s.boxes[:0:0]
		for i := range s.walls {
			if w := &s.walls[i]; !w.Open {
				s.boxes = append(s.boxes, boxOfWall(w))
			}
		}
	}
	if s.solids == nil || len(delta) > 0 || e.Walls != nil {
		var ws []walls.Wall
		if e.Walls != nil {
			ws = closed
		} else if s.solids != nil {
			ws = s.solids.walls.Walls()
		}
		s.windowed.Store(nil) // nor keep the old index alive through the last window's terrain
		if s.solids != nil && (len(delta) == 0 || len(delta) <= maxEditInPlace && s.solids.Edit(editOf(delta))) {
			// The obstacles' index holds the change in place (Update runs alone): only the walls
			// may need indexing anew.
			if e.Walls != nil {
				s.solids = terrainOf(s.solids.Solids, ws)
			}
			return nil
		}
		s.solids = terrainOf(board.FromSeq(func(yield func(board.Solid) bool) {
			for c, f := range s.cells {
				if !yield(board.Solid{Cell: c, Fill: int(f)}) {
					return
				}
			}
		}), ws)
	}
	return nil
}

// maxEditInPlace is the most cells an edit changes in the obstacles' index in place
// (board.Solids.Edit, each a pass over its tiles' sums); a larger edit indexes the board anew.
const maxEditInPlace = 256

// editOf lists the cells of an edit for board.Solids.Edit.
func editOf(delta map[grid.Cell]uint16) []board.Solid {
	out := make([]board.Solid, 0, len(delta))
	for c, f := range delta {
		out = append(out, board.Solid{Cell: c, Fill: int(f)})
	}
	return out
}

// editTokens is the scene's tokens after the edit's removals and tokens, validated: each as
// Evaluate validates a request's token, ids present and unique, at most MaxTokens.
func (s *Scene) editTokens(e *SceneEdit, fresh bool) ([]Token, map[string]int, *Error) {
	if len(e.Remove) == 0 && len(e.Tokens) == 0 && !fresh {
		return s.tokens, s.ids, nil
	}
	if len(e.Tokens) > MaxTokens {
		return nil, nil, newError(CodeTooLarge, "tokens: "+num.Itoa(len(e.Tokens))+" tokens, past the limit of "+num.Itoa(MaxTokens))
	}
	gone := map[string]bool{}
	for i, id := range e.Remove {
		if _, ok := s.ids[id]; !ok {
			return nil, nil, newError(CodeBadRequest, label{"remove", i}.String()+": no token has the id "+num.Quote(id))
		}
		gone[id] = true
	}
	var out []Token
	for _, t := range s.tokens {
		if !gone[t.ID] {
			out = append(out, t)
		}
	}
	ids := make(map[string]int, len(out)+len(e.Tokens))
	for i := range out {
		ids[out[i].ID] = i
	}
	seen := make(map[string]int, len(e.Tokens))
	for i := range e.Tokens {
		t := &e.Tokens[i]
		where := label{"tokens", i}
		if _, err := entityOf(where, t); err != nil {
			return nil, nil, err
		}
		if t.ID == "" {
			return nil, nil, newError(CodeBadRequest, where.String()+".id: every token needs an id")
		}
		if j, dup := seen[t.ID]; dup {
			return nil, nil, newError(CodeBadRequest, where.String()+".id: "+num.Quote(t.ID)+" is also the id of tokens["+num.Itoa(j)+"]")
		}
		seen[t.ID] = i
		if j, ok := ids[t.ID]; ok {
			out[j] = *t
		} else {
			ids[t.ID] = len(out)
			out = append(out, *t)
		}
	}
	if len(out) > MaxTokens {
		return nil, nil, newError(CodeTooLarge, "tokens: the board would hold "+num.Itoa(len(out))+" tokens, past the limit of "+num.Itoa(MaxTokens))
	}
	return out, ids, nil
}
