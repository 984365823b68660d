"Dry Parcel" by "The zorktui authors"

[A tiny original story for zorktui's engine tests. Our own work, released
under the MIT License; no text, names or puzzles come from any other game.

Three rooms. Score 10: taking the parcel (5) and setting it on the stump
across the river (5), which ends the story in victory. Diving off the raft
ends it otherwise.]

The story headline is "A tiny test story for zorktui".
The release number is 4.
The story creation year is 2026.
Use scoring.
The maximum score is 10.

Reed Landing is a room. "Reeds lean over a muddy landing. A flat raft is moored to the east."

The oilcloth parcel is in Reed Landing. The description of the parcel is "Bound in oilcloth and string. It must reach the far bank dry."
After taking the parcel for the first time:
	increase the score by 5;
	say "You tuck the parcel under your arm."

Ferry Raft is east of Reed Landing. "Lashed logs, a guide rope stretched across the river, and the brown water sliding past on every side. The landing is west."

The guide rope is scenery in Ferry Raft. The description of the guide rope is "It runs from bank to bank."

Willow Bank is a room. "Willows trail their fingers in the water. A mossy stump stands by the path. The raft waits to the west."

The mossy stump is a supporter in Willow Bank. It is scenery.

Instead of pulling the guide rope:
	if the raft-crossed is false:
		say "The old rope creaks and frays where it meets the post. Trust your weight to it? ";
		if the player consents:
			now the raft-crossed is true;
		otherwise:
			say "You let the rope go slack. The raft rocks where it is.";
			stop the action;
		change the east exit of Ferry Raft to Willow Bank;
		change the west exit of Willow Bank to Ferry Raft;
		say "Hand over hand you haul the raft across. The far bank bumps against the logs to the east.";
	otherwise:
		say "The raft is already over against the far bank."

The raft-crossed is a truth state that varies. The raft-crossed is false.

Swimming is an action applying to nothing. Understand "swim" or "dive" as swimming.
Carry out swimming:
	say "There is nowhere to swim here."
Instead of swimming in Ferry Raft:
	say "You dive off the raft. The current is far stronger than it looked; it rolls you under and does not let you up.";
	end the story saying "The brown water keeps what it takes".
Instead of jumping in Ferry Raft:
	try swimming.

After putting the parcel on the mossy stump:
	increase the score by 5;
	say "You set the parcel on the stump, dry as the day it was wrapped.";
	end the story finally saying "Delivered, and not a drop on it".

The yes or no question internal rule response (A) is "The rope will hear only yes or no. ".
The quit the game rule response (A) is "Leave the river to itself? ".
The restart the game rule response (A) is "Back to the reeds and the first step? ".

This is the reed question rule:
	say "The reeds rustle their choices: RESTART, RESTORE a saved game, UNDO the last command, or QUIT.[line break]".
The reed question rule is listed instead of the print the final question rule in before handling the final question.
