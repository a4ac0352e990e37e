package mapfile

// Pickup models the game uses for health and armor.
const (
	HealthModel = 1240 // "health", the heart
	ArmorModel  = 1242 // "bodyarmour"
)

// weaponModels maps a weapon id (0..46) to the object model the game shows
// for it, from the game's weapon.dat as SA-MP's and MTA:SA's weapon lists
// give it; 0 where the weapon has no model (fist, ids 19..21 unused). The
// models are the weapon models of the model table: weapon_test.go checks
// each against wire.IsWeaponModel and the table's names.
var weaponModels = [...]int{
	0:  0,   // fist
	1:  331, // brass knuckles
	2:  333, // golf club
	3:  334, // nightstick
	4:  335, // knife
	5:  336, // baseball bat
	6:  337, // shovel
	7:  338, // pool cue
	8:  339, // katana
	9:  341, // chainsaw
	10: 321, // purple dildo
	11: 322, // dildo
	12: 323, // vibrator
	13: 324, // silver vibrator
	14: 325, // flowers
	15: 326, // cane
	16: 342, // grenade
	17: 343, // tear gas
	18: 344, // molotov cocktail
	22: 346, // pistol
	23: 347, // silenced pistol
	24: 348, // desert eagle
	25: 349, // shotgun
	26: 350, // sawn-off shotgun
	27: 351, // combat shotgun
	28: 352, // uzi
	29: 353, // mp5
	30: 355, // ak-47
	31: 356, // m4
	32: 372, // tec-9
	33: 357, // country rifle
	34: 358, // sniper rifle
	35: 359, // rocket launcher
	36: 360, // heat-seeking rocket launcher
	37: 361, // flamethrower
	38: 362, // minigun
	39: 363, // satchel charge
	40: 364, // detonator
	41: 365, // spray can
	42: 366, // fire extinguisher
	43: 367, // camera
	44: 368, // night vision goggles
	45: 369, // infrared goggles
	46: 371, // parachute
}

// WeaponModel returns the object model the game shows for a weapon id, and
// false when the id is not a weapon with a model.
func WeaponModel(weapon int) (int, bool) {
	if weapon < 0 || weapon >= len(weaponModels) || weaponModels[weapon] == 0 {
		return 0, false
	}
	return weaponModels[weapon], true
}

// ModelWeapon returns the weapon id whose model this is, and false when the
// model is no weapon's.
func ModelWeapon(model int) (int, bool) {
	if model == 0 {
		return 0, false
	}
	for w, m := range weaponModels {
		if m == model {
			return w, true
		}
	}
	return 0, false
}

// pickupKind classifies an SA-MP pickup by its model.
func pickupKind(model int) (PickupKind, int) {
	switch model {
	case HealthModel:
		return PickupHealth, 0
	case ArmorModel:
		return PickupArmor, 0
	}
	if w, ok := ModelWeapon(model); ok {
		return PickupWeapon, w
	}
	return PickupCustom, 0
}
