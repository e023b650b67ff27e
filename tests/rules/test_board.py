import math

import pytest

from yut_cam.rules import UnknownStationError, board, coordinates, edges, name_of, station


def test_twenty_nine_stations_with_unique_names_and_slugs():
    assert board.NUM_STATIONS == 29
    assert len(set(board.NAMES)) == 29
    assert len(set(board.SLUGS)) == 29


@pytest.mark.parametrize(
    "name, slug",
    [("참먹이", "chammeogi"), ("모", "mo"), ("뒷모", "dwit_mo"), ("찌모", "jji_mo"), ("방", "bang"),
     ("모개", "mo_gae"), ("뒷모도", "dwitmo_do"), ("방수기", "bangsugi"), ("안찌", "anjji"),
     ("속윷", "sok_yut"), ("날윷", "nal_yut")],
)  # fmt: skip
def test_names_and_slugs_are_aliases(name, slug):
    assert station(name) == station(slug) == station(slug.upper())
    assert name_of(station(slug)) == name


@pytest.mark.parametrize("bad", ["", "moo", "뒷뒷모", None, 29, -3, 3.5])
def test_unknown_station_is_a_clear_error(bad):
    with pytest.raises(UnknownStationError, match="station"):
        station(bad)


def test_outer_ring_order_counter_clockwise_from_chammeogi():
    expected = ["참먹이", "도", "개", "걸", "윷", "모", "뒷도", "뒷개", "뒷걸", "뒷윷", "뒷모",
                "찌도", "찌개", "찌걸", "찌윷", "찌모", "날도", "날개", "날걸", "날윷"]  # fmt: skip
    assert list(board.NAMES[:20]) == expected


def test_round_board_geometry():
    pts = coordinates()
    for i in range(20):
        x, y = pts[i]
        assert math.isclose(math.hypot(x, y), 1.0, abs_tol=1e-6)
        x2, y2 = pts[(i + 1) % 20]
        angle = math.degrees(math.atan2(x * y2 - y * x2, x * x2 + y * y2))
        assert math.isclose(angle, 18.0, abs_tol=1e-4)  # counter-clockwise, 18° apart
    assert pts[station("방")] == (0.0, 0.0)
    # corners on two crossing diameters
    for a, b in (("참먹이", "뒷모"), ("모", "찌모")):
        (x1, y1), (x2, y2) = pts[station(a)], pts[station(b)]
        assert math.isclose(x1, -x2, abs_tol=1e-6) and math.isclose(y1, -y2, abs_tol=1e-6)
    # default: 참먹이 bottom right, 모 top right
    cx, cy = pts[station("참먹이")]
    assert cx > 0 and cy < 0
    mx, my = pts[station("모")]
    assert mx > 0 and my > 0
    # two stations between each corner and 방, on the line
    for corner, near, far in (("모", "모개", "모도"), ("뒷모", "뒷모개", "뒷모도"),
                              ("찌모", "속윷", "속모"), ("참먹이", "방수기", "안찌")):  # fmt: skip
        kx, ky = pts[station(corner)]
        assert pts[station(near)] == pytest.approx((kx / 3, ky / 3), abs=1e-6)
        assert pts[station(far)] == pytest.approx((2 * kx / 3, 2 * ky / 3), abs=1e-6)


def test_rotation_turns_the_board():
    a = coordinates(0)
    b = coordinates(90)
    x, y = a[station("참먹이")]
    assert b[station("참먹이")] == pytest.approx((-y, x), abs=1e-6)


def test_edges_cover_every_station_once_connected():
    es = edges()
    assert len(es) == 20 + 12
    touched = {s for e in es for s in e}
    assert touched == set(range(29))
