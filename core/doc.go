// Package core is the root of aoekit's rules engine: pure Go, no I/O, no syscall/js,
// no net/http, no encoding/json. The engine lives in its sub-packages:
//
//   - grid: cells, directions, facing, distances and entity spaces (SPEC §1)
//   - circle50: the exact 50 % circle (SPEC §4.1)
//   - template: the template shapes of every rule set and the cells they cover (SPEC §2–§4)
//   - notation: parsing and formatting TDGS, Draw Steel and 50 % circle notation (SPEC §2.2, §3.8)
//   - los: exact segment blocking on the 1/400 lattice (SPEC §5.1–§5.2)
//   - cover: cover points and grades (SPEC §5.3–§5.5)
//   - walls: thin walls and their index (SPEC §5.6)
//   - shadow: shared line of effect, many segments decided at once before any is walked (SPEC §3.2, §5.2)
//   - decimal: exact reading of decimal numbers, for fills rounded by their decimal value (SPEC §5.1)
//   - board: an index of solid cells that answers fills and empty boxes in constant time (SPEC §1.6)
//   - fullattack: the D&D 3.5 full attack's sequence of attacks and their bonuses (SPEC §9)
//   - engine: whole requests: evaluate, move, attack cover, full attack and scenes (SPEC §6–§9;
//     the JSON contract is web/CONTRACT.md)
//
// "SPEC §2.9" and the like, here and throughout the code, cite the rule book SPEC.md in this
// directory; README.md beside it is the guide to using the engine from Go.
//
// The engine avoids fmt so that the WebAssembly module stays small (see `make size`).
package core
