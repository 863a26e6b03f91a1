package engine

// The request's and answer's words: each a string on the wire, each its own type in Go, with
// its values as constants. The wire's TypeScript declarations list a type's constants as its
// union of strings unless a field's //ts:type line narrows it.

// Rules names a rule set (SPEC §6): the profile an evaluate follows (tdgs, drawsteel,
// circle50) or the grades an attack's cover is judged by (tdgs, drawsteel, dnd35).
type Rules string

// The rule sets.
const (
	RulesTDGS      Rules = "tdgs"
	RulesDrawSteel Rules = "drawsteel"
	RulesCircle50  Rules = "circle50"
	RulesDnD35     Rules = "dnd35" // attack cover only (SPEC §5.7)
	RulesDnD5e     Rules = "dnd5e" // point-origin areas and cover (SPEC §10)
	RulesPF2e      Rules = "pf2e"  // point-origin areas and cover (SPEC §11)
)

// CreatureCover is how other creatures give cover in dnd5e (SPEC §10.8).
type CreatureCover string

// The creature-cover rules; CreatureHalf is the default.
const (
	CreatureHalf CreatureCover = "half" // SRD 5.2: at most half cover
	CreatureFull CreatureCover = "full" // 2014: like walls
	CreatureNone CreatureCover = "none"
)

// Metric is how range and a Draw Steel shape's "within" count distance (SPEC §8.2); shapes use
// their own rules.
type Metric string

// The metrics; Chebyshev is the default.
const (
	MetricChebyshev   Metric = "chebyshev"
	MetricAlternating Metric = "alternating"
	MetricManhattan   Metric = "manhattan"
	MetricEuclidean   Metric = "euclidean"
)

// CoverRules is which cover grades an evaluate applies (SPEC §6): a rule set's, or none.
type CoverRules string

// The cover grade tables.
const (
	CoverTDGS      CoverRules = "tdgs"
	CoverDrawSteel CoverRules = "drawsteel"
	CoverNone      CoverRules = "none"
)

// Grade is a cover grade (SPEC §5.5, §5.7).
type Grade string

// The grades. TDGS: none, partial, half, full. Draw Steel: none, cover, full. D&D 3.5: none,
// partial, cover, improved, total. D&D 5e: none, half, threeQuarters, total. Pathfinder 2e:
// none, lesser, standard, greater, total.
const (
	GradeNone     Grade = "none"
	GradePartial  Grade = "partial"
	GradeHalf     Grade = "half"
	GradeCover    Grade = "cover"
	GradeImproved Grade = "improved"
	GradeFull     Grade = "full"
	GradeTotal    Grade = "total"
	// dnd5e (SPEC §10.8): none, half, threeQuarters, total.
	GradeThreeQuarters Grade = "threeQuarters"
	// pf2e (SPEC §11.5): none, lesser, standard, greater, total.
	GradeLesser   Grade = "lesser"
	GradeStandard Grade = "standard"
	GradeGreater  Grade = "greater"
)

// Trait is a smart-targeting trait (SPEC §7.3).
type Trait string

// The traits; TraitNone (or "") keeps every entity.
const (
	TraitNone           Trait = "none"
	TraitAlliesExcluded Trait = "alliesExcluded"
	TraitEnemiesOnly    Trait = "enemiesOnly"
	TraitSelective      Trait = "selective"
)

// Reason is why an entity in the area is not affected (CONTRACT evaluate).
type Reason string

// The reasons.
const (
	ReasonBarrier   Reason = "barrier"
	ReasonTargeting Reason = "targeting"
	ReasonCover     Reason = "cover"
)

// MoveKind is a forced movement's kind (SPEC §3.7).
type MoveKind string

// The forced movements.
const (
	MovePush  MoveKind = "push"
	MovePull  MoveKind = "pull"
	MoveSlide MoveKind = "slide"
)

// AttackKind is the kind of attack whose cover is asked (SPEC §5.4, §5.7).
type AttackKind string

// The attacks.
const (
	AttackMelee  AttackKind = "melee"
	AttackReach  AttackKind = "reach"
	AttackRanged AttackKind = "ranged"
)

// RangeKind is how a Range is given (SPEC §2.9).
type RangeKind string

// The ranges; RangeNone means no range was given.
const (
	RangeNone    RangeKind = ""
	RangeSquares RangeKind = "squares"
	RangeSelf    RangeKind = "self"
	RangeTouch   RangeKind = "touch"
)

// CollisionKind is what stopped a forced movement (SPEC §3.7).
type CollisionKind string

// The collisions.
const (
	CollisionObstacle CollisionKind = "obstacle"
	CollisionWall     CollisionKind = "wall"
	CollisionToken    CollisionKind = "token"
	CollisionEdge     CollisionKind = "edge"
)
