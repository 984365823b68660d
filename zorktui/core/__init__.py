"""What every layer shares: the ``Turn`` record that flows through everything, the errors
zorktui raises for people to read, and scratch folders that never outlive the process."""
