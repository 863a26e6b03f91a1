package fullattack

// Limits on one full-attack request (SPEC §9.1, in the spirit of §8.3). Past a count the
// answer is too_large; a BAB or an id out of range is bad_request.
const (
	MaxBAB     = 40 // base attack bonus 0 … MaxBAB (§9.1)
	MaxHands   = 8  // holding slots; also entries of holding
	MaxSteps   = 64 // steps of one full attack
	MaxNatural = 16 // natural weapons
	MaxFeats   = 16 // entries of feats (a feat may repeat)
	MaxID      = 64 // bytes of a hand name or an item's or natural weapon's id; none is empty
)

// Feat is a feat a full attack knows (SPEC §9.1).
type Feat string

// The feats of SPEC §9.1. A feat implies its SRD prerequisites among these: Greater Two-Weapon
// Fighting implies Improved, which implies Two-Weapon Fighting.
const (
	FeatTwoWeaponFighting         Feat = "twoWeaponFighting"
	FeatImprovedTwoWeaponFighting Feat = "improvedTwoWeaponFighting"
	FeatGreaterTwoWeaponFighting  Feat = "greaterTwoWeaponFighting"
	FeatRapidShot                 Feat = "rapidShot"
	FeatQuickDraw                 Feat = "quickDraw"
	FeatMultiattack               Feat = "multiattack"
)

// Kind is what sort of thing a hand holds (SPEC §9.1).
type Kind string

// The kinds of SPEC §9.1. A two-handed or double item is held in two hands; a double weapon has
// two heads, the first one-handed, the second light.
const (
	KindLight       Kind = "light"
	KindOneHanded   Kind = "oneHanded"
	KindTwoHanded   Kind = "twoHanded"
	KindDouble      Kind = "double"
	KindLightShield Kind = "lightShield"
	KindHeavyShield Kind = "heavyShield"
)

// Ranged is how a weapon attacks at range (SPEC §9.1): a projectile weapon is its own launcher
// (a bow, a crossbow) and stays in hand; a thrown weapon leaves the hand when thrown.
type Ranged string

// The ranged forms of SPEC §9.1; RangedNone ("") is a melee-only item. Only light, one-handed and
// two-handed items may be ranged.
const (
	RangedNone       Ranged = ""
	RangedProjectile Ranged = "projectile"
	RangedThrown     Ranged = "thrown"
)

// As is the budget an attack is priced from (SPEC §9.3–§9.7).
type As string

// The budgets of a priced attack.
const (
	AsPrimary As = "primary" // the primary sequence (§9.3)
	AsOff     As = "off"     // an off hand's own sequence (§9.4)
	AsExtra   As = "extra"   // Rapid Shot's extra attack (§9.6)
	AsNatural As = "natural" // a natural weapon's one attack (§9.7)
)

// Unarmed is the `with` of an attack by an empty hand: an unarmed strike, a light weapon
// attack (SPEC §9.1).
const Unarmed = "unarmed"

// Item is a thing held in a hand (SPEC §9.1): its id, its kind and, for a ranged weapon, how it
// attacks at range. A two-handed or double item is named with the same id in both its hands.
//
//wire:want an item object {"id", "kind", "ranged"}
type Item struct {
	ID string `json:"id"`
	//ts:type "light" | "oneHanded" | "twoHanded" | "double" | "lightShield" | "heavyShield"
	Kind Kind `json:"kind"`
	// `projectile` (a launcher: a bow or crossbow is twoHanded, a hand crossbow light) or
	// `thrown`; absent for a melee-only item.
	//ts:type "projectile" | "thrown"
	Ranged Ranged `json:"ranged,omitempty"`
}

// Natural is a natural weapon (SPEC §9.1, §9.7): it attacks once per full attack, at `bab` when
// primary and no weapon attack is made, else as a secondary one.
//
//wire:want a natural weapon object {"id", "primary", "hand"}
//wire:list an array of natural weapons
type Natural struct {
	ID      string `json:"id"`
	Primary bool   `json:"primary,omitempty"`
	// The hand it sits on (a claw), if any: it cannot attack while that hand holds anything or
	// after the hand has made a weapon attack.
	Hand string `json:"hand,omitempty"`
}

// Step is one step of a full attack (SPEC §9.2): exactly one of `attack`, `natural`, `drop` and
// `draw` is set.
//
//   - {attack: hand} attacks with what the hand holds (an unarmed strike when it is empty), with
//     `head` 1 or 2 for a double weapon (and only then), `extra` for Rapid Shot's extra attack,
//     `throw` to throw a thrown weapon (without it a thrown weapon strikes in melee). A two-handed
//     weapon is named by either of its hands.
//   - {natural: id} is a natural weapon's attack.
//   - {drop: hand} drops what the hand holds (free); a two-handed or double item frees both hands.
//   - {draw: hand, item} draws an item (needs Quick Draw); a two-handed or double item names both
//     its hands, `hands: [a, b]`, one of them the `draw` hand.
//
//wire:want a step object
//wire:list an array of steps
type Step struct {
	Attack string `json:"attack,omitempty"`
	Head   int    `json:"head,omitempty"`
	Extra  bool   `json:"extra,omitempty"`
	Throw  bool   `json:"throw,omitempty"`
	// A natural weapon's id.
	Natural string   `json:"natural,omitempty"`
	Drop    string   `json:"drop,omitempty"`
	Draw    string   `json:"draw,omitempty"`
	Hands   []string `json:"hands,omitempty"`
	Item    *Item    `json:"item,omitempty"`
}

// Request is a full attack (SPEC §9): the combatant (§9.1), its declarations and its steps in
// order (§9.2). Unknown fields are ignored.
//
// In Go, Hands nil means the default ["main", "off"]; an empty non-nil Hands is a bad_request.
//
//wire:want an object
type Request struct {
	// Base attack bonus, 0 … 40.
	//ts:optional
	BAB int `json:"bab"`
	//ts:type Feat[]
	Feats []Feat `json:"feats,omitempty"`
	// The holding slots in order, `["main", "off"]` when absent: the first is the primary hand,
	// every other an off hand.
	Hands []string `json:"hands,omitempty"`
	// What each hand holds at the start, by hand name; an absent hand, or null, is empty.
	//ts:type Record<string, FullAttackItem | null>
	Holding map[string]Item `json:"holding,omitempty"`
	Natural []Natural       `json:"natural,omitempty"`
	// Two-weapon fighting (SPEC §9.4); needs at least two hands.
	TwoWeapon bool `json:"twoWeapon,omitempty"`
	// Rapid Shot (SPEC §9.6); needs the rapidShot feat.
	RapidShot bool   `json:"rapidShot,omitempty"`
	Steps     []Step `json:"steps,omitempty"`
}

// Parts are the terms of an attack's bonus (SPEC §9.8); the bonus is their sum.
type Parts struct {
	// The sequence step: the primary or off-hand sequence's bonus for that attack; `bab` for Rapid
	// Shot's extra attack and for a natural weapon.
	Sequence int `json:"sequence"`
	// The two-weapon penalty (§9.4): 0 without `twoWeapon` and for natural attacks.
	TwoWeapon int `json:"twoWeapon"`
	// −2 on every attack of a full attack that declares Rapid Shot (§9.6), else 0.
	RapidShot int `json:"rapidShot"`
	// A natural weapon's: 0 primary, −5 secondary (−2 with Multiattack); 0 for weapon attacks.
	Natural int `json:"natural"`
}

// PricedStep is a step of the answer (SPEC §9.8): the step as sent and, for an attack, its price.
// Drop and draw steps come back as sent, without `bonus`.
type PricedStep struct {
	Attack  string   `json:"attack,omitempty"`
	Head    int      `json:"head,omitempty"`
	Extra   bool     `json:"extra,omitempty"`
	Throw   bool     `json:"throw,omitempty"`
	Natural string   `json:"natural,omitempty"`
	Drop    string   `json:"drop,omitempty"`
	Draw    string   `json:"draw,omitempty"`
	Hands   []string `json:"hands,omitempty"`
	Item    *Item    `json:"item,omitempty"`
	// What attacks: the item's id, `"unarmed"` for an empty hand, the natural weapon's id.
	With string `json:"with,omitempty"`
	// The budget the attack is priced from.
	//ts:type "primary" | "off" | "extra" | "natural"
	As As `json:"as,omitempty"`
	// A natural attack priced as secondary (§9.7).
	Secondary bool `json:"secondary,omitempty"`
	// The total attack bonus: the sum of `parts`. Absent for drop and draw steps.
	Bonus *int   `json:"bonus,omitempty"`
	Parts *Parts `json:"parts,omitempty"`
}

// Result is the answer to a full attack (SPEC §9.8): every step priced, then every attack the
// combatant could make next.
type Result struct {
	// The request's steps in order. Natural attacks are priced by the whole full attack (§9.7): a
	// weapon attack anywhere makes every natural attack secondary.
	Steps []PricedStep `json:"steps"`
	// Every attack that could be appended now, priced as if it were: by hand order, each hand's
	// attack (head 1 then 2 for a double weapon, a two-handed item under its first hand) then its
	// Rapid Shot extra attack, then natural weapons in request order.
	Next []PricedStep `json:"next"`
}
