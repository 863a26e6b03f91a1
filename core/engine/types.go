package engine

// The types of this file (and Error) are the contract of web/CONTRACT.md, described once:
// `go generate ./wasm/wire` derives from them the JSON codec every door shares (wasm/wire) and
// the package's TypeScript declarations (web/index.d.ts). What the generator reads:
//
//   - json tags: a field's name on the wire, and with omitempty that it may be absent (left
//     out of an answer when zero, optional in TypeScript);
//   - doc comments above a type or a field: its JSDoc, "Name is" dropped from a type's first
//     sentence. Paragraphs that start "In Go" and comments at the end of a line are for Go only;
//   - a wire tag, wire:"name": a polymorphic field, read by wasm/wire's hand-written nameField
//     (custom.go), which is given the field, or with wire:"name,struct" the struct;
//   - a //ts:type line in a field's doc comment: its TypeScript type where its Go type says too
//     little (a union of strings; a name the d.ts template declares). Not a tag, which the
//     module would carry in its type descriptors, as it does json and wire tags;
//   - //wire:want and //wire:list lines in a type's doc comment: what a type error expects for
//     the type and for a list of it ("tokens[3]: expected a token object, got null").

// Pos is a cell as an object, {"x": 1, "y": 2, "z": 0}: the form of caster, token and origin
// positions.
//
//wire:want an object {"x", "y", "z"}
type Pos struct {
	X int `json:"x"`
	Y int `json:"y"`
	//ts:optional
	Z int `json:"z"`
}

// Point is a point in squares (SPEC §10.1), {"x": 10, "y": 6.5, "z": 0}: grid lines are whole
// numbers, a square's middle is a half. Each coordinate is rounded to the nearest 1/400 by its
// decimal value, as a wall's ends are; `z` is a height in levels (0 is the floor of level 0).
// The origin of a point-origin area (dnd5e, pf2e) and an aim point.
//
//wire:want an object {"x", "y", "z"}
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	//ts:optional
	Z float64 `json:"z"`
}

// Toward is the direction of a point-origin cone, line or cube (SPEC §10.2): a compass name
// (absolute, not turned by facing), a number of degrees (0 east, 90 south, clockwise, read to
// 1/400 of a degree) or an aim point.
//
// In Go, set one of Compass, Degrees (with IsDegrees) or Aim; all unset means none given.
type Toward struct {
	Compass   string
	Degrees   float64
	IsDegrees bool
	Aim       *Point
}

// Token is an entity on the board (SPEC §1.5). Its anchor (x, y, z) is its north-west, lowest
// cell. `size` is a number of squares or a size name (`"Large"`, `"1T"`…), 1 by default;
// `height` defaults to the size; `facing` to N.
//
// In Go, Size 0 means 1 unless SizeName names a size; Height 0 means Size; Facing "" means N.
//
//wire:want a token object
//wire:list an array of tokens
type Token struct {
	//ts:optional
	ID string `json:"id"`
	X  int    `json:"x"`
	Y  int    `json:"y"`
	//ts:optional
	Z int `json:"z"`
	//ts:type number | string
	Size     int    `json:"size,omitempty" wire:"size,struct"` // or SizeName, for a name
	SizeName string `json:"-"`
	//wire:positive
	Height int `json:"height,omitempty"`
	//ts:type Direction
	Facing string `json:"facing,omitempty"`
	// Free text ("party", "enemy"…) compared by the targeting traits.
	Side  string `json:"side,omitempty"`
	Prone bool   `json:"prone,omitempty"`
	// Took the Take Cover action (pf2e, SPEC §11.5): standard cover where it would have none or
	// lesser, greater where it would have standard.
	TakingCover bool `json:"takingCover,omitempty"`
}

// Obstacle is a solid cell (SPEC §1.6); `fill` in (0, 1] is its filled fraction of the height,
// 1 by default.
//
// In Go, Fill 0 means 1. The engine rounds Fill to the nearest 1/400 by its decimal value, a tie
// rounding up, and to 1/400 at least (SPEC §5.1): the decimal of a float64 is the shortest that
// reads back as it, strconv.FormatFloat(f, 'g', -1, 64), which is also what encoding/json and
// JavaScript write, so a Go caller's 0.03625 is 15/400 as the JSON text 0.03625 is. The wire
// reads a fill's text exactly and hands the engine n/400 (see ParseFill).
//
//wire:want an obstacle object {"x", "y", "z", "fill"}
//wire:list an array of obstacles
type Obstacle struct {
	X int `json:"x"`
	Y int `json:"y"`
	//ts:optional
	Z    int     `json:"z"`
	Fill float64 `json:"fill,omitempty" wire:"fill,struct"`
}

// Wall is a thin wall (SPEC §5.6): a vertical sheet of no thickness over the segment a → b of
// the plane, in squares (grid lines are whole numbers; other values are rounded to 1/400 as
// `fill` is), from level `bottom` to level `top`, without limit where absent. An `open` wall
// (an open door) blocks nothing.
//
// In Go, nil Bottom and Top mean without limit.
//
//wire:want a wall object {"a": [x, y], "b": [x, y]}
//wire:list an array of walls
type Wall struct {
	//wire:required
	A [2]float64 `json:"a"`
	//wire:required
	B      [2]float64 `json:"b"`
	Bottom *float64   `json:"bottom,omitempty"`
	Top    *float64   `json:"top,omitempty"`
	Open   bool       `json:"open,omitempty"`
	// A one-way wall (SPEC §5.6): it blocks only what comes from this side of a → b, seen from
	// a looking toward b (y grows south). Honoured by the dnd5e and pf2e rule sets; the others
	// refuse a one-way wall.
	//ts:type "left" | "right"
	From string `json:"from,omitempty"`
}

// Bounds is the board, inclusive on both ends.
//
//wire:want an object {"min": [x, y, z], "max": [x, y, z]}
type Bounds struct {
	//wire:required
	Min [3]int `json:"min"`
	//wire:required
	Max [3]int `json:"max"`
}

// Range is an ability's range: a number of squares, "self" or "touch" (SPEC §2.9).
// Kind "" means no range was given.
type Range struct {
	Kind    RangeKind
	Squares int
}

// Targeting is smart targeting (SPEC §7.3).
//
//wire:want a targeting object
type Targeting struct {
	Trait Trait `json:"trait,omitempty"`
	// The ids a `selective` trait keeps.
	IDs           []string `json:"ids,omitempty"`
	ExcludeCaster bool     `json:"excludeCaster,omitempty"`
	// A dnd5e emanation affects its caster only when this is set (SPEC §10.5).
	IncludeCaster bool `json:"includeCaster,omitempty"`
	// Cells that leave the area.
	ExcludeCells [][3]int `json:"excludeCells,omitempty"`
}

// Resolve is a request for rolls (SPEC §7.4).
//
//wire:want a resolve object
type Resolve struct {
	// The caster's attacking stat.
	//ts:optional
	Stat      int `json:"stat"`
	Modifiers int `json:"modifiers,omitempty"`
	Luck      int `json:"luck,omitempty"`
	// The generator's seed: same seed and request, same rolls on every platform. An integer,
	// or its decimal string: past 2^53 − 1 a JavaScript number cannot carry it exactly.
	//ts:type number | string
	Seed uint64 `json:"seed,omitempty" wire:"seed"`
	// Each target's defending stat by id (REF for most areas); cover adds to it.
	Defence map[string]int `json:"defence,omitempty"`
}

// TemplateRef is a request's template: notation Text, or an Object as Parse returns it.
type TemplateRef struct {
	Text   string
	Object *Template
}

// Request is an evaluate request (CONTRACT evaluate). Missing optional fields take SPEC
// defaults; unknown fields are ignored.
//
//wire:want an object
type Request struct {
	// The rule set (SPEC §6) whose profile every rule-dependent step follows; the template's own
	// when absent.
	//ts:type Rules
	Rules Rules `json:"rules,omitempty"`
	//ts:type TemplateInput
	Template TemplateRef `json:"template" wire:"template"`
	// Required for shapes that project from the caster or are placed at range.
	Caster *Token `json:"caster,omitempty"`
	// The chosen cell of an at-range shape: circle centre, rectangle anchor, cube's
	// north-west-lowest cell, line origin.
	Origin *Pos `json:"origin,omitempty"`
	// The origin point of a point-origin area (dnd5e, pf2e; SPEC §10.1, §10.7).
	Point *Point `json:"point,omitempty"`
	// The direction of a point-origin cone, line or cube (SPEC §10.2): a compass name, degrees
	// or an aim point.
	//ts:type Direction | number | Point
	Toward Toward `json:"toward,omitempty" wire:"toward"`
	// A Draw Steel cube's origin square (SPEC §3.4).
	OriginSquare *Pos `json:"originSquare,omitempty"`
	// The cell a Draw Steel line points at.
	Aim *Pos `json:"aim,omitempty"`
	// The explicit cells of a Draw Steel line or wall, validated (SPEC §3.5–§3.7).
	Path [][3]int `json:"path,omitempty"`
	// A number of squares, `"self"` or `"touch"`.
	//ts:type number | "self" | "touch"
	Range     Range      `json:"range,omitempty" wire:"range"`
	Tokens    []Token    `json:"tokens,omitempty"`
	Obstacles []Obstacle `json:"obstacles,omitempty"`
	// Thin walls (SPEC §5.6).
	Walls []Wall `json:"walls,omitempty"`
	// Cells outside are left out of `cells` (clipped, not an error).
	Bounds    *Bounds   `json:"bounds,omitempty"`
	Targeting Targeting `json:"targeting,omitempty"`
	Resolve   *Resolve  `json:"resolve,omitempty"`
	// Turns a rectangle (also accepted in the template object).
	//ts:type "N" | "E" | "S" | "W"
	Orientation string `json:"orientation,omitempty"`
	// Distance for range and "within" (SPEC §8.2); chebyshev by default. Shapes always use
	// their own rules.
	Metric Metric `json:"metric,omitempty"`
	// Whether obstacles shape the area (SPEC §6); the rule set's choice when absent.
	Barriers *bool `json:"barriers,omitempty"`
	// Which cover grades apply (SPEC §6); the rule set's when absent.
	Cover CoverRules `json:"cover,omitempty"`
	// Whether full cover leaves a target unaffected; the rule set's choice when absent.
	ApplyCover *bool `json:"applyCover,omitempty"`
	// How other creatures give cover in dnd5e (SPEC §10.8): half at most (the default), like
	// walls (full), or not at all (none).
	CreatureCover CreatureCover `json:"creatureCover,omitempty"`
}

// Template is a parsed template (CONTRACT parse). All sizes are integers in squares; fields a
// shape does not have are absent. TDGS: circle `radius`; cone `length`, `direction`; line
// `length`, `direction`, `width`; rectangle `width`, `length`; each `height`. Draw Steel: aura
// and burst `radius`; cube `side`; line `length`, `width`; wall `squares`; each `within` where
// given. 50 % circle: `size`, `close`.
//
// In Go, an absent size is 0, an absent string "" and an absent close nil.
//
//wire:want a template object
type Template struct {
	// The text as given to parse (absent when the template was built from an object).
	Text string `json:"text,omitempty"`
	// The canonical notation (SPEC §2.2): parsing it gives the same template — but for a
	// dnd5e or pf2e template's down, base and angle, which only its object carries.
	Notation string `json:"notation"`
	//ts:type Rules
	Rules Rules `json:"rules"`
	//ts:type ShapeName
	Shape  string `json:"shape"`
	Radius int    `json:"radius,omitempty"`
	Side   int    `json:"side,omitempty"`
	Size   int    `json:"size,omitempty"`
	Length int    `json:"length,omitempty"`
	//ts:type Direction
	Direction string `json:"direction,omitempty"`
	//wire:positive
	Width int `json:"width,omitempty"`
	//wire:positive
	Height  int `json:"height,omitempty"`
	Squares int `json:"squares,omitempty"`
	//wire:positive
	Within int   `json:"within,omitempty"`
	Close  *bool `json:"close,omitempty"`
	// A rectangle's turn about its anchor (SPEC §2.7); N when absent.
	//ts:type "N" | "E" | "S" | "W"
	Orientation string `json:"orientation,omitempty"`
	// A dnd5e cylinder that hangs from its top circle (SPEC §10.5).
	Down bool `json:"down,omitempty"`
	// A dnd5e cone's base: flat (the default) or round (bounded by a sphere, as Foundry draws).
	//ts:type "flat" | "round"
	Base string `json:"base,omitempty"`
	// A dnd5e cone's angle in degrees, 1 to 179 (SPEC §10.5); the rule book's 53.13° when
	// absent.
	Angle float64 `json:"angle,omitempty"`
}

// Result is the answer to evaluate (CONTRACT evaluate).
type Result struct {
	Template Template `json:"template"`
	// The absolute direction after facing; absent for shapes without one.
	//ts:type Direction
	Direction string `json:"direction,omitempty"`
	// The origin: a cell for tdgs, drawsteel and circle50; for dnd5e and pf2e the origin point
	// used (as given, or the default of SPEC §10.5), on the 1/400 lattice.
	//ts:type Required<Point>
	Origin Point `json:"origin"`
	// Whether the caster has line of sight to the origin (SPEC §2.9, §5.3).
	OriginVisible bool `json:"originVisible"`
	// Every affected cell, sorted by z, then y, then x, without duplicates.
	Cells [][3]int32 `json:"cells"` // int32 (half the memory): cells lie within ±(MaxCoord + 2·MaxDim)
	Count int        `json:"count"`
	// The caster first when its space overlaps the shape, then tokens in request order.
	Targets []Target `json:"targets"`
}

// Target is an entity whose space overlaps the area (CONTRACT evaluate).
type Target struct {
	ID       string `json:"id"`
	InArea   bool   `json:"inArea"`
	Affected bool   `json:"affected"`
	// Why an entity in the area is not affected.
	Reason Reason `json:"reason,omitempty"`
	//ts:type CoverGrade
	Cover Grade `json:"cover"`
	// The bonus: 0, 2 or 4 (tdgs REF); dnd5e 0, 2 or 5 (AC and Dex saves); pf2e 0, 1, 2 or 4.
	Bonus int `json:"bonus"`
	// How many of `lines` are blocked.
	Blocked int    `json:"blocked"` // of len(Lines)
	Lines   []Line `json:"lines"`
	// Present when the request had `resolve`.
	Roll *Roll `json:"roll,omitempty"`
}

// Line is one cover segment (SPEC §5.4) in world units (cells), marked blocked or clear.
type Line struct {
	From    [3]float64 `json:"from"`
	To      [3]float64 `json:"to"`
	Blocked bool       `json:"blocked"`
}

// Roll is one target's resolution (SPEC §7.4).
type Roll struct {
	Dice    []int `json:"dice"`
	Total   int   `json:"total"`
	Defence int   `json:"defence"`
	Hit     bool  `json:"hit"`
}

// MoveRequest is a forced movement (CONTRACT move, SPEC §3.7).
//
//wire:want an object
type MoveRequest struct {
	Kind MoveKind `json:"kind"`
	//ts:optional
	Distance int `json:"distance"`
	//ts:optional
	Source Pos `json:"source"`
	// The id of the token moved.
	Target string `json:"target"`
	// The squares the target's anchor enters, in order, without its starting square; the engine
	// picks a straight one when absent.
	Path      [][3]int   `json:"path,omitempty"` // nil: the engine picks the path
	Vertical  bool       `json:"vertical,omitempty"`
	Tokens    []Token    `json:"tokens,omitempty"`
	Obstacles []Obstacle `json:"obstacles,omitempty"`
	// Thin walls (SPEC §5.6): crossing one between two squares is a collision.
	Walls  []Wall  `json:"walls,omitempty"`
	Bounds *Bounds `json:"bounds,omitempty"`
}

// MoveResult is where a forced movement ends.
type MoveResult struct {
	// The squares actually entered.
	Path [][3]int32 `json:"path"`
	//ts:type Required<Pos>
	End       Pos        `json:"end"`
	Collision *Collision `json:"collision"`
}

// Collision is what stopped a forced movement, and how many squares were left.
type Collision struct {
	// What was hit: an obstacle, a thin wall, a token or the edge of the bounds.
	Kind CollisionKind `json:"kind"`
	// `"obstacle"`, `"wall"`, `"edge"` or the token's id.
	With string   `json:"with"`
	At   [3]int32 `json:"at"`
	// Squares of movement left.
	Left int `json:"left"`
}

// VersionInfo is the engine's version, the answer to version().
type VersionInfo struct {
	//ts:type "aoekit"
	Engine  string `json:"engine"`
	Version string `json:"version"`
	// The CONTRACT version: 1.
	Contract int `json:"contract"`
}

// Version of the engine.
const Version = "0.1.0"

// About returns the engine's version.
func About() VersionInfo { return VersionInfo{Engine: "aoekit", Version: Version, Contract: 1} }

// CoverRequest is an attack-cover request (CONTRACT cover, SPEC §5.7). Missing optional
// fields take SPEC defaults; unknown fields are ignored.
//
//wire:want an object
type CoverRequest struct {
	// The rule set whose grades apply: `tdgs` (the default), `drawsteel`, `dnd35`, `dnd5e` or
	// `pf2e`.
	//ts:type "tdgs" | "drawsteel" | "dnd35" | "dnd5e" | "pf2e"
	Rules Rules `json:"rules,omitempty"`
	// `melee` (the spaces must be adjacent), `reach` or `ranged`.
	Attack AttackKind `json:"attack"`
	//wire:required
	Attacker Attacker `json:"attacker"`
	//wire:required
	Target Token `json:"target"`
	// The other entities: validated as evaluate's tokens are, and never blocking (SPEC §5.2).
	Tokens    []Token    `json:"tokens,omitempty"`
	Obstacles []Obstacle `json:"obstacles,omitempty"`
	// Thin walls (SPEC §5.6).
	Walls []Wall `json:"walls,omitempty"`
	// How the other tokens give cover in dnd5e (SPEC §10.8); pf2e's lesser cover comes from
	// them too (§11.5).
	CreatureCover CreatureCover `json:"creatureCover,omitempty"`
}

// Attacker is the attacking entity of a cover request: a token (SPEC §1.5) and whether it is
// flying. An attacker that is not flying stands on ground: it does not strike down through
// its bottom face, nor through the ground under its space (SPEC §5.4, ruling R2). Its id is
// optional.
//
// In Go, Size 0 means 1 unless SizeName names a size; Height 0 means Size; Facing "" means N.
//
//wire:want an attacker object
type Attacker struct {
	ID string `json:"id,omitempty"`
	X  int    `json:"x"`
	Y  int    `json:"y"`
	//ts:optional
	Z int `json:"z"`
	//ts:type number | string
	Size     int    `json:"size,omitempty" wire:"attackerSize,struct"` // or SizeName, for a name
	SizeName string `json:"-"`
	//wire:positive
	Height int `json:"height,omitempty"`
	//ts:type Direction
	Facing string `json:"facing,omitempty"`
	Side   string `json:"side,omitempty"`
	Prone  bool   `json:"prone,omitempty"`
	// Not standing on ground: a flying attacker strikes down through every face turned toward
	// the target, and its segments are judged against every solid.
	Flying bool `json:"flying,omitempty"`
}

// Token is the attacker as a token, without Flying.
func (a *Attacker) Token() Token {
	return Token{ID: a.ID, X: a.X, Y: a.Y, Z: a.Z, Size: a.Size, SizeName: a.SizeName, Height: a.Height,
		Facing: a.Facing, Side: a.Side, Prone: a.Prone}
}

// CoverResult is the answer to a cover request (CONTRACT cover, SPEC §5.7).
type CoverResult struct {
	// The grade of the request's rule set: `none`, `partial`, `half` or `full` (tdgs; always
	// `none` in melee), `none`, `cover` or `full` (drawsteel), `none`, `partial`, `cover`,
	// `improved` or `total` (dnd35), `none`, `half`, `threeQuarters` or `total` (dnd5e), `none`,
	// `lesser`, `standard`, `greater` or `total` (pf2e).
	Grade Grade `json:"grade"`
	// The bonus the grade gives: 0, 2, 4 or 8 (none for full or total cover, which allow no
	// attack).
	Bonus int `json:"bonus"`
	// How many of `lines` are blocked.
	Blocked int `json:"blocked"`
	// How many `lines` there are.
	Total int `json:"total"`
	// Whether at least one line is clear; for dnd5e and pf2e, whether the target can be
	// attacked at all: false exactly when the grade is total (creatures that block every line
	// still leave line of effect).
	LineOfEffect bool `json:"lineOfEffect"`
	// The attacker's cell the attack is judged from, [x, y, z].
	From [3]int32 `json:"from"`
	// The segments from that cell's source points to the target's points, in world units.
	Lines []Line `json:"lines"`
}
