"""Who is in a hand: how a table of four to seven deals, who deals, who rests and who is killed."""
