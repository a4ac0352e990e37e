package world

import (
	"errors"
	"fmt"

	"dlmp/internal/wire"
)

// ErrState is the kind of error of a command that the player's or the
// entity's state does not allow (a respawn of a living player, a teleport of
// a dead one, a pickup that does not exist), for errors.Is.
var ErrState = errors.New("not allowed in this state")

// ArgError is a command refused for one argument: the command (as the
// gamemode API names it), the argument and the rule it breaks. Err is the
// wire rule when the argument would break a packet's send check (a
// *wire.Error), or ErrState.
type ArgError struct {
	Func string // "create_pickup"
	Arg  string // "model"
	Rule string // the rule, with the value found
	Err  error
}

func (e *ArgError) Error() string {
	if e.Err != nil && e.Rule == "" {
		return fmt.Sprintf("%s: %s: %v", e.Func, e.Arg, e.Err)
	}
	return fmt.Sprintf("%s: %s: %s", e.Func, e.Arg, e.Rule)
}

func (e *ArgError) Unwrap() error { return e.Err }

// argErr wraps a wire send-check error for an argument of a command.
func argErr(fn, arg string, err error) error {
	if err == nil {
		return nil
	}
	return &ArgError{Func: fn, Arg: arg, Err: err}
}

// stateErr is a command refused by state.
func stateErr(fn, arg, rule string, args ...any) error {
	return &ArgError{Func: fn, Arg: arg, Rule: fmt.Sprintf(rule, args...), Err: ErrState}
}

// fieldArgErr names the argument a packet's send rule refused: the wire
// error's field.
func fieldArgErr(fn string, err error) error {
	var we *wire.Error
	if errors.As(err, &we) {
		return &ArgError{Func: fn, Arg: we.Field, Err: err}
	}
	return &ArgError{Func: fn, Arg: "params", Err: err}
}
