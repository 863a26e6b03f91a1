package fullattack_test

import (
	"encoding/json"
	"fmt"

	"github.com/aoekit/aoekit/core/fullattack"
)

// A longsword and a dagger with Two-Weapon Fighting, then a greatsword quick-drawn (SPEC §9.5
// (a)). BAB +11 gives the primary sequence +11/+6/+1 and one off-hand attack at +11; the dagger
// is light and the feat is known, so every weapon attack takes −2. The greatsword takes the
// primary sequence's next bonus, +6 − 2 = +4, and may still make the third, +1 − 2 = −1.
func ExamplePlan() {
	req := &fullattack.Request{
		BAB:   11,
		Feats: []fullattack.Feat{fullattack.FeatTwoWeaponFighting, fullattack.FeatQuickDraw},
		Holding: map[string]fullattack.Item{
			"main": {ID: "longsword", Kind: fullattack.KindOneHanded},
			"off":  {ID: "dagger", Kind: fullattack.KindLight},
		},
		TwoWeapon: true,
		Steps: []fullattack.Step{
			{Attack: "main"},
			{Attack: "off"},
			{Drop: "main"},
			{Drop: "off"},
			{Draw: "main", Hands: []string{"main", "off"}, Item: &fullattack.Item{ID: "greatsword", Kind: fullattack.KindTwoHanded}},
			{Attack: "main"},
		},
	}
	res, err := fullattack.Plan(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The answer as a door sends it, a step a line.
	for _, s := range res.Steps {
		line, _ := json.Marshal(s)
		fmt.Println(string(line))
	}
	fmt.Println("next:")
	for _, s := range res.Next {
		line, _ := json.Marshal(s)
		fmt.Println(string(line))
	}
	// Output:
	// {"attack":"main","with":"longsword","as":"primary","bonus":9,"parts":{"sequence":11,"twoWeapon":-2,"rapidShot":0,"natural":0}}
	// {"attack":"off","with":"dagger","as":"off","bonus":9,"parts":{"sequence":11,"twoWeapon":-2,"rapidShot":0,"natural":0}}
	// {"drop":"main"}
	// {"drop":"off"}
	// {"draw":"main","hands":["main","off"],"item":{"id":"greatsword","kind":"twoHanded"}}
	// {"attack":"main","with":"greatsword","as":"primary","bonus":4,"parts":{"sequence":6,"twoWeapon":-2,"rapidShot":0,"natural":0}}
	// next:
	// {"attack":"main","with":"greatsword","as":"primary","bonus":-1,"parts":{"sequence":1,"twoWeapon":-2,"rapidShot":0,"natural":0}}
}
