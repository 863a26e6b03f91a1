// Package fullattack prices a D&D 3.5 full attack by holding slots (SPEC §9, seed 004): what a
// combatant may still do depends on what each hand holds now and what it has already done, not
// on a list of weapons. Plan takes the combatant (BAB, feats, hands, what they hold, natural
// weapons), the declarations (two-weapon fighting, Rapid Shot) and the steps in order — attacks,
// natural attacks, drops and draws — and answers each attack's bonus with its parts, then every
// attack that could come next; or the first illegal step, its index and why.
//
// The budgets (SPEC §9.3–§9.7, numbers from the SRD):
//
//   - the primary sequence: bab, bab−5, bab−10, bab−15, each while at least +1, the first
//     always. Every weapon attack that is not off-hand, not Rapid Shot's extra and not natural
//     takes its next bonus — without twoWeapon, every weapon attack;
//   - with twoWeapon, each off hand's own sequence: bab, then bab−5 with Improved and bab−10 with
//     Greater Two-Weapon Fighting. An off hand's light or one-handed weapon, shield bash or
//     unarmed strike, and a double weapon's second head, draw on it; the primary hand, a double
//     weapon's first head and a two-handed weapon on the primary sequence. The two-weapon
//     penalties (SRD table: −6/−10, light −4/−8, the feat −4/−4, both −2/−2) are judged once, at
//     the first weapon attack, by what the first off hand holds then (empty, light, a light
//     shield or a double weapon is light), and apply to every weapon attack;
//   - Rapid Shot's one extra attack at bab, outside both sequences, with the two-weapon penalty
//     of the hand's role; −2 on every attack of a full attack that declares it;
//   - natural weapons, once each: bab when primary and the full attack has no weapon attack,
//     else bab−5 (bab−2 with Multiattack).
//
// # Rulings where SPEC §9 is silent
//
// These are this package's choices; the tests pin them.
//
//   - Declaring rapidShot without the rapidShot feat is a bad_request (At −1): not_declared is
//     the opposite case, an extra attack whose Rapid Shot was not declared.
//   - Declaring twoWeapon with a single hand is a bad_request (At −1): there is no off hand
//     to judge or to attack with. Declared with two hands or more, the penalties apply to every
//     weapon attack even if no off-hand attack is made: the declaration counts, as in the SRD.
//   - "The first attack" that judges the two-weapon penalties is the first weapon attack
//     (Rapid Shot's extra included), since natural attacks never take them.
//   - The Rapid Shot −2 is on every attack, natural ones included (§9.6 read literally; the SRD's
//     "each attack you make in that round").
//   - A feat implies its SRD prerequisites among §9.1's feats: greaterTwoWeaponFighting implies
//     improvedTwoWeaponFighting, which implies twoWeaponFighting (the penalty table's feat). A
//     feat may be listed twice. The off-hand sequence has no "at least +1" floor: §9.4 gives it
//     none (the SRD gives the feats' extra attacks flat −5 and −10).
//   - An attack by an empty hand is an unarmed strike; its `with` is "unarmed".
//   - A natural attack's `with` is its id; its parts' sequence is bab, so that bonus is always the
//     sum of the parts (also for Rapid Shot's extra attack, whose sequence is bab).
//   - A double weapon's second head, with twoWeapon, uses the off-hand sequence of the first off
//     hand (in hand order) of the two hands that hold it, whichever hand the step names.
//   - Rapid Shot's extra attack takes the primary penalty from the primary hand or with a
//     two-handed weapon, the off-hand penalty from an off hand's own weapon.
//   - `head` is required (1 or 2) exactly when the hand holds a double weapon, and refused
//     otherwise; `extra` with a thrown weapon must also say `throw`; a projectile weapon is shot,
//     never thrown (not_ranged).
//   - Only light, one-handed and two-handed items may be ranged; a ranged shield or double weapon
//     is a bad_request. A projectile weapon's normal attack is a shot and stays in hand.
//   - Dropping an empty hand is a bad_request. A draw checks needs_quick_draw before hand_busy.
//     A draw of a one-handed item may not name `hands`; a two-handed or double item names exactly
//     two different hands, one of them the `draw` hand.
//   - In holding, an id held as a two-handed or double item must be held in exactly two hands,
//     as the same item; other items may share ids (two daggers).
//   - An unknown hand in holding is reported by the least such name, so the message does not
//     depend on map order. Request fields are checked in the order of Request's fields, counts
//     (too_large) before contents.
//   - `next` lists one melee strike for a thrown weapon (a throw costs the same) and a thrown
//     weapon's extra attack as a throw; a two-handed or double item under its first hand.
//   - Errors carry At, the step's 0-based index, or −1 when not about a step. Through the doors
//     (engine.FullAttack, wasm/wire) a step's index is on the wire even when it is 0, unlike
//     core/engine's notation position, which is omitted at 0, and an error not about a step has
//     no "at".
//
// The package is pure Go: no I/O, no fmt, no encoding/json (the codec lives at the edge, as for
// core/engine). It does not import core/engine; the engine imports it.
package fullattack
