from server import list_tags, search_notes


def test_tags():
    assert list_tags() == ["done", "later", "todo"]


def test_search():
    assert search_notes("x", limit=1) == []
