"""Game records: Game, Seat, Action, ... None yet; the rules engine (games/engine) comes first."""
