package engine

// Pos is a cell on the wire: {"x": 1, "y": 2, "z": 0}.
type Pos struct {
	X int `json:"x"`
	Y int `json:"y"`
	Z int `json:"z"`
}

// Token is an entity on the board (SPEC §1.5). Size 0 means 1 unless SizeName names a size
// (the wire's "size" may be a number or a name); Height 0 means Size; Facing "" means N.
type Token struct {
	ID       string `json:"id"`
	X        int    `json:"x"`
	Y        int    `json:"y"`
	Z        int    `json:"z"`
	Size     int    `json:"size,omitempty"`
	SizeName string `json:"-"`
	Height   int    `json:"height,omitempty"`
	Facing   string `json:"facing,omitempty"`
	Side     string `json:"side,omitempty"`
	Prone    bool   `json:"prone,omitempty"`
}

// Obstacle is a solid cell (SPEC §1.6); Fill in (0, 1] is its filled fraction of the height,
// 0 meaning 1. The engine rounds Fill to the nearest 1/400 by its decimal value, a tie rounding
// up, and to 1/400 at least (SPEC §5.1): the decimal of a float64 is the shortest that reads
// back as it, strconv.FormatFloat(f, 'g', -1, 64), which is also what encoding/json and
// JavaScript write, so a Go caller's 0.03625 is 15/400 as the JSON text 0.03625 is. The wire
// reads a fill's text exactly and hands the engine n/400 (see ParseFill).
type Obstacle struct {
	X    int     `json:"x"`
	Y    int     `json:"y"`
	Z    int     `json:"z"`
	Fill float64 `json:"fill,omitempty"`
}

// Bounds is the board, inclusive.
type Bounds struct {
	Min [3]int `json:"min"`
	Max [3]int `json:"max"`
}

// Range is an ability's range: a number of squares, "self" or "touch" (SPEC §2.9).
// Kind "" means no range was given.
type Range struct {
	Kind    string // "", "squares", "self", "touch"
	Squares int
}

// Targeting is the smart-targeting trait (SPEC §7.3).
type Targeting struct {
	Trait         string   `json:"trait,omitempty"` // none, alliesExcluded, enemiesOnly, selective
	IDs           []string `json:"ids,omitempty"`
	ExcludeCaster bool     `json:"excludeCaster,omitempty"`
	ExcludeCells  [][3]int `json:"excludeCells,omitempty"`
}

// Resolve asks for rolls (SPEC §7.4).
type Resolve struct {
	Stat      int            `json:"stat"`
	Modifiers int            `json:"modifiers"`
	Luck      int            `json:"luck"`
	Seed      uint64         `json:"seed"`
	Defence   map[string]int `json:"defence"`
}

// TemplateRef is a request's template: notation Text, or an Object as Parse returns it.
type TemplateRef struct {
	Text   string
	Object *Template
}

// Request is an evaluate request (CONTRACT evaluate).
type Request struct {
	Rules        string // tdgs, drawsteel or circle50 (SPEC §6); "" takes the template's own
	Template     TemplateRef
	Caster       *Token
	Origin       *Pos
	OriginSquare *Pos
	Aim          *Pos
	Path         [][3]int
	Range        Range
	Tokens       []Token
	Obstacles    []Obstacle
	Bounds       *Bounds
	Targeting    Targeting
	Resolve      *Resolve
	// Orientation turns a rectangle (N, E, S, W); it may also be given in the template object.
	Orientation string
	// Metric is the distance for range (SPEC §8.2): chebyshev (default), alternating,
	// manhattan, euclidean.
	Metric string
	// Barriers overrides whether obstacles shape the area (SPEC §6); nil takes the rule set's.
	Barriers *bool
	// Cover overrides the cover grades (SPEC §6): tdgs, drawsteel or none; "" takes the rule set's.
	Cover string
	// ApplyCover overrides whether full cover leaves a target unaffected; nil takes the rule set's.
	ApplyCover *bool
}

// Template is a parsed template on the wire (CONTRACT parse). Zero fields are left out.
type Template struct {
	Text        string `json:"text,omitempty"`
	Notation    string `json:"notation"`
	Rules       string `json:"rules"`
	Shape       string `json:"shape"`
	Radius      int    `json:"radius,omitempty"`
	Side        int    `json:"side,omitempty"`
	Size        int    `json:"size,omitempty"`
	Length      int    `json:"length,omitempty"`
	Direction   string `json:"direction,omitempty"`
	Width       int    `json:"width,omitempty"`
	Height      int    `json:"height,omitempty"`
	Squares     int    `json:"squares,omitempty"`
	Within      int    `json:"within,omitempty"`
	Close       *bool  `json:"close,omitempty"`
	Orientation string `json:"orientation,omitempty"`
}

// Result is the answer to an evaluate request (CONTRACT evaluate).
type Result struct {
	Template      Template   `json:"template"`
	Direction     string     `json:"direction,omitempty"`
	Origin        Pos        `json:"origin"`
	OriginVisible bool       `json:"originVisible"`
	Cells         [][3]int32 `json:"cells"` // int32 (half the memory): cells lie within ±(MaxCoord + 2·MaxDim)
	Count         int        `json:"count"`
	Targets       []Target   `json:"targets"`
}

// Target is one entity whose space overlaps the template (CONTRACT evaluate).
type Target struct {
	ID       string `json:"id"`
	InArea   bool   `json:"inArea"`
	Affected bool   `json:"affected"`
	Reason   string `json:"reason,omitempty"` // cover, targeting, barrier
	Cover    string `json:"cover"`
	Bonus    int    `json:"bonus"`
	Blocked  int    `json:"blocked"` // blocked segments, of len(Lines)
	Lines    []Line `json:"lines"`
	Roll     *Roll  `json:"roll,omitempty"`
}

// Line is one cover segment in world units (cells), marked blocked or clear.
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
type MoveRequest struct {
	Kind      string // push, pull, slide
	Distance  int
	Source    Pos
	Target    string
	Path      [][3]int // nil: the engine picks the path
	Vertical  bool
	Tokens    []Token
	Obstacles []Obstacle
	Bounds    *Bounds
}

// MoveResult is where a forced movement ends.
type MoveResult struct {
	Path      [][3]int32 `json:"path"`
	End       Pos        `json:"end"`
	Collision *Collision `json:"collision"`
}

// Collision says what stopped a forced movement and how many squares were left.
type Collision struct {
	With string   `json:"with"` // "obstacle" or a token id
	At   [3]int32 `json:"at"`
	Left int      `json:"left"`
}

// VersionInfo is the answer to version().
type VersionInfo struct {
	Engine   string `json:"engine"`
	Version  string `json:"version"`
	Contract int    `json:"contract"`
}

// Version of the engine.
const Version = "0.1.0"

// About returns the engine's version.
func About() VersionInfo { return VersionInfo{Engine: "aoekit", Version: Version, Contract: 1} }
