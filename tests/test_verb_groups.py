"""Verb groups from a dictionary: a group with a meta synonym is left out whole."""

from types import SimpleNamespace

from zorktui.engine.zmachine.dictionary import DictWord
from zorktui.engine.zmachine.verbs import about_settings, is_meta, verb_groups


def _verb(text: str, number: int) -> DictWord:
    return DictWord(text=text, addr=0, verb=True, verb_number=number, meta=False, noun=False,
                    preposition=False, adjective=False, direction=False, plural=False)


def test_a_synonym_of_a_meta_verb_is_meta() -> None:
    # Zork I: "super" shares a verb number with "superbrief", stored cut to "superb".
    words = [_verb("take", 1), _verb("get", 1), _verb("superb", 2), _verb("super", 2), _verb("wait", 3)]
    zm = SimpleNamespace(dictionary=SimpleNamespace(words=words, resolution=6))
    assert verb_groups(zm) == ["take", "wait"]


def test_a_debugging_builds_verbs_are_meta() -> None:
    # zorkie's builds keep ZIL's "debug" (it prints the parser's workings into every later reply);
    # Inform's debug builds have "purloin", "gonear", "actions"... Real verbs that look alike stay.
    assert all(is_meta(w) for w in ("debug", "purloin", "gonear", "actions", "routin", "showob"))
    assert not any(is_meta(w) for w in ("change", "go", "act", "climb", "trade"))
    assert about_settings("debug") and not about_settings("climb {0}")
    words = [_verb("debug", 1), _verb("take", 2)]
    assert verb_groups(SimpleNamespace(dictionary=SimpleNamespace(words=words, resolution=6))) == ["take"]
