"""``BoundedCache`` keeps what a least-recently-used mapping of its bounds keeps."""

from __future__ import annotations

from collections import OrderedDict

from hypothesis import given
from hypothesis import strategies as st

from simulator.cache import BoundedCache

OPS = st.lists(st.tuples(st.sampled_from(["put", "get"]), st.integers(0, 5), st.integers(0, 9)), max_size=60)


def _model_put(model: OrderedDict[int, int], key: int, value: int, maxsize: int, max_weight: int | None) -> None:
    model.pop(key, None)
    if maxsize == 0 or (max_weight is not None and value > max_weight):
        return
    model[key] = value
    while len(model) > maxsize or (max_weight is not None and sum(model.values()) > max_weight):
        model.popitem(last=False)


@given(ops=OPS, maxsize=st.integers(0, 4), weighted=st.booleans())
def test_bounded_cache_is_an_lru_of_its_bounds(ops: list[tuple[str, int, int]], maxsize: int, weighted: bool) -> None:
    max_weight = 12 if weighted else None
    cache: BoundedCache[int, int] = (
        BoundedCache(maxsize, weigh=lambda v: v, max_weight=12) if weighted else BoundedCache(maxsize)
    )
    model: OrderedDict[int, int] = OrderedDict()
    for op, key, value in ops:
        if op == "put":
            cache.put(key, value)
            _model_put(model, key, value, maxsize, max_weight)
        else:
            assert cache.get(key) == model.get(key)
            if key in model:
                model.move_to_end(key)
        assert cache.keys() == list(model)
        assert cache.weight == (sum(model.values()) if weighted else 0)
    assert cache.get(99, -1) == -1  # a miss gives the default
