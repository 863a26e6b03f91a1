// Package notation reads and writes template notation: TDGS (SPEC §2.2), Draw Steel (§3.8) and
// the 50 % circle (§4).
//
// Parse tells the rule sets apart by the text's start, after white space:
//
//   - a digit (or a sign then a digit): Draw Steel, "3 aura", "5 x 1 line within 1";
//   - a first word that is "circle" or starts with "close", in any case: the 50 % circle,
//     "circle 3", "close circle 3";
//   - anything else: TDGS, "Cir3", "Con4NE", "Lin5Sw2", "Rec3x4h2".
//
// So "Cir3" is a TDGS circle and "circle 3" a 50 % circle.
//
// Parse fills in every default: a TDGS shape's Height is its effective height (SPEC §2.8) and a
// TDGS line's Width is 1 when absent, so Format(Parse(s)) is canonical and Parse(Format(t)) == t
// for every shape Parse returns. Every parse error is a *SyntaxError wrapping ErrSyntax that names
// what was expected and the 1-based position, in runes of the original text, where parsing
// failed; a position one past the last rune (white space left out) means the text ended too
// soon.
//
// Where SPEC is silent this package decides:
//
//   - Words and shape codes are matched in any case under Unicode simple case folding.
//   - TDGS: the modifiers w and h may come in either order, each at most once (the canonical order
//     is w then h). The size separator of RecWxL is a lower-case "x" or "×"; "X" is an error.
//     TDGS takes no white space inside the notation: "Cir 3" is an error.
//   - Numbers are ASCII digits, at most template.MaxDim (template.MaxHeight after h,
//     template.MaxCircle50 for a 50 % circle); "+", "-" and "−" are reported as a sign.
//   - Draw Steel: English and Russian words may be mixed, in any case; the size separator of a
//     line is "x", "X", "×" or the Cyrillic "х"/"Х" (what a Russian keyboard types). Words are
//     runs of letters, so "3aura", "5x1 line" and "3 cube within10" parse, while "3 cubewithin 10"
//     does not. "within" is allowed on cubes, lines and walls, not on auras and bursts.
//   - 50 % circle: "circle N" or "close circle N"; the number may follow the word directly
//     ("circle3").
//   - White space is anything unicode.IsSpace accepts; invalid UTF-8 bytes count one position
//     each. SyntaxError.Error repeats at most the first 40 runes of the text.
package notation
