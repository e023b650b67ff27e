"""The scoreboard and the referee console in a real browser against the production server.

One server for the module (``live_server_module``); each test opens its own match.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.web_browser.helpers import BAD_PIN, console, js_errors, live_state, login, new_match_on_both, scoreboard
from tests.web_live import LiveServer
from yut_cam.hardware.display import compose
from yut_cam.hardware.timer import TimerState

pytestmark = pytest.mark.browser

def test_scoreboard_shows_board_teams_and_clock(live_server_module: LiveServer, open_page: Callable[..., Any]) -> None:
    match_id = live_server_module.create_match()
    page = scoreboard(open_page, live_server_module, match_id)
    assert page.locator(".yut-board .station").count() == 29
    assert page.locator(".yut-board .station.big").count() == 5  # four corners and 방
    assert page.locator(".yut-board .edges line").count() == 32
    for team in (0, 1):
        assert page.locator(f"#team{team} .tray-pieces.waiting svg").count() == 4
        assert page.locator(f"#team{team} .tray-pieces.finished svg").count() == 0
    assert page.inner_text("#team0 .team-name") == "청룡"
    assert page.inner_text("#team1 .team-name") == "백호"
    assert "청룡 차례" in page.inner_text("#turn-team")
    assert "가람" in page.inner_text("#turn-next")  # the first registered thrower
    assert re.fullmatch(r"(19|20):\d\d", page.inner_text("#match-clock"))
    assert page.locator("#conn").is_hidden()
    # a station's name on tap
    page.click('.yut-board .station[data-name="모개"]')
    assert page.locator(".yut-board .tip").get_attribute("visibility") == "visible"
    assert page.locator(".yut-board .tip text").text_content() == "모개"
    assert js_errors(page) == []


def test_wrong_pin_is_refused_and_right_pin_opens_console(
    live_server_module: LiveServer, open_page: Callable[..., Any]
) -> None:
    page = open_page(1280, 800)
    page.goto(f"{live_server_module.url}/referee")
    page.wait_for_url(re.compile(r"/referee/login"))
    login(page, live_server_module, BAD_PIN)
    page.wait_for_selector("#error:not([hidden])")
    assert "PIN이 틀렸습니다" in page.inner_text("#error")
    assert "/referee/login" in page.url
    page.goto(f"{live_server_module.url}/referee")
    assert "/referee/login" in page.url  # still not logged in
    login(page, live_server_module, live_server_module.pin)
    page.wait_for_url(re.compile(r"/referee(\?.*)?$"))
    page.wait_for_selector("#topbar, .topbar")
    assert page.locator("#logout-form").count() == 1


def test_move_made_in_console_appears_on_scoreboard(
    live_server_module: LiveServer, open_page: Callable[..., Any]
) -> None:
    server = live_server_module
    match_id, board_page, ref = new_match_on_both(open_page, server)

    server.post_event(match_id, {"type": "throw", "team": 0, "result": "개"})
    # watch for the gliding piece (deterministic: a MutationObserver notes its keyframes)
    board_page.evaluate("""() => {
        window.glides = [];
        new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => {
            if (n.classList && n.classList.contains("ghost"))
                window.glides.push(n.getAnimations()[0].effect.getKeyframes().map((k) => k.transform));
        }))).observe(document.querySelector(".yut-board .pieces"), {childList: true});
    }""")
    # a waiting piece enters: tap it in the tray, then the highlighted destination
    ref.click("#tray0 .tray-piece.selectable")
    ref.click('.yut-board .target[data-to="개"]')
    board_page.wait_for_selector('.yut-board .piece.team0[data-at="개"]')
    board_page.wait_for_function("window.glides.length > 0")
    glide = board_page.evaluate("window.glides[0]")
    at = board_page.locator('.yut-board .station[data-name="개"]').get_attribute("transform")
    x, y = re.findall(r"-?[\d.]+", at)
    assert len(glide) == 3, glide  # off the board → 도 → 개, station by station
    assert [float(v) for v in re.findall(r"-?[\d.]+", glide[-1])] == pytest.approx([float(x), float(y)], abs=0.01)
    assert board_page.locator("#team0 .tray-pieces.waiting svg").count() == 3

    server.post_event(match_id, {"type": "throw", "team": 1, "result": "걸"})
    ref.click("#tray1 .tray-piece.selectable")
    ref.click('.yut-board .target[data-to="걸"]')
    board_page.wait_for_selector('.yut-board .piece.team1[data-at="걸"]')

    # 청룡 throws 도: tap its piece on the board and land on 걸 — 백호's piece is caught
    server.post_event(match_id, {"type": "throw", "team": 0, "result": "도"})
    ref.click('.yut-board .piece.team0.selectable[data-at="개"]')
    target = ref.locator('.yut-board .target[data-to="걸"]')
    assert target.locator(".target-label").text_content() == "도"
    target.click()
    board_page.wait_for_selector('.yut-board .piece.team0[data-at="걸"]')
    board_page.wait_for_function("document.querySelectorAll('#team1 .tray-pieces.waiting svg').length === 4")
    assert board_page.locator(".yut-board .piece.team1").count() == 0
    # a capture earns one more throw: still 청룡
    board_page.wait_for_function("document.getElementById('turn-team').textContent.includes('청룡')")
    state = live_state(server, match_id)
    assert [p["at"] for p in state["teams"][0]["pieces"]].count("걸") == 1
    assert js_errors(board_page) == [] and js_errors(ref) == []


def test_camera_reading_is_confirmed_or_corrected_with_one_tap(
    live_server_module: LiveServer, open_page: Callable[..., Any]
) -> None:
    server = live_server_module
    match_id, board_page, ref = new_match_on_both(open_page, server)

    server.inject_reading(match_id, result="걸", confidence=0.93)
    board_page.wait_for_selector("#reading:not([hidden])")
    assert "판정 중" in board_page.inner_text("#reading")
    confirm = ref.wait_for_selector("#r-confirm:not([hidden])")
    assert "걸" in confirm.inner_text()
    ref.wait_for_function("document.getElementById('r-img').naturalWidth > 0")
    confirm.click()
    board_page.wait_for_selector("#reading", state="hidden")
    board_page.wait_for_function("[...document.querySelectorAll('#pending .chip')].map(c => c.textContent).join() === '걸'")
    history = live_server_module.referee().get(f"/api/matches/{match_id}/events")[1]
    assert history[-1]["event"]["type"] == "throw" and history[-1]["event"]["result"] == "걸"
    assert history[-1]["event"]["thrower"] == "가람"
    board_page.wait_for_function("document.getElementById('cam-img').naturalWidth > 0")

    assert ref.locator("#r-why").is_hidden()  # a sure reading gives no reasons

    # the next reading is unsure and wrong: the console says what to look at, and one tap
    # on the right result corrects it
    ref.click("#tray0 .tray-piece.selectable")
    ref.click('.yut-board .target[data-to="걸"]')
    board_page.wait_for_selector('.yut-board .piece.team0[data-at="걸"]')
    server.inject_reading(match_id, result="개", confidence=0.6,
                          reasons=("stick 3: just off the mat (5 px from its outline), check it does not touch the mat",
                                   "stick 1: face unsure (margin 0.12)"), alternatives=("낙", "걸"))
    ref.wait_for_selector("#r-confirm:not([hidden])")
    assert ref.locator("#r-why li").all_inner_texts() == [
        "3번 윷이 멍석 바로 밖에 있습니다: 멍석에 닿았는지 보세요 (닿았으면 낙이 아님)",
        "1번 윷의 배·등이 확실하지 않습니다"]
    assert "카메라 판독: 개 (또는 낙·걸)" in ref.inner_text("#r-caption")
    assert "심판 확인 필요" in ref.inner_text("#r-caption")
    # what else it may be is marked among the results, the reading itself as before
    assert ref.locator("#results .result.camera-maybe").evaluate_all("bs => bs.map(b => b.dataset.result)") == ["걸", "낙"]
    assert ref.locator("#results .result.camera-says").evaluate_all("bs => bs.map(b => b.dataset.result)") == ["개"]
    assert ref.inner_text("#r-note").startswith("개 또는 낙 또는 걸:")
    ref.click('#results .result[data-result="모"]')
    ref.wait_for_selector("#r-why", state="hidden")
    board_page.wait_for_function("[...document.querySelectorAll('#pending .chip')].map(c => c.textContent).join() === '모'")
    events = live_server_module.referee().get(f"/api/matches/{match_id}/events")[1]
    assert events[-1]["event"]["result"] == "모" and events[-1]["event"]["team"] == 1
    assert js_errors(board_page) == [] and js_errors(ref) == []


def test_reading_in_the_move_phase_waits_for_the_moves(
    live_server_module: LiveServer, open_page: Callable[..., Any]
) -> None:
    """Sticks read while the pieces are still to be moved: the rules take no throw now, so the
    console holds the reading (confirm and results disabled, saying why) until the moves are
    made, and it can be thrown away."""
    server = live_server_module
    match_id = server.create_match()
    ref = console(open_page, server, match_id)
    # no camera on this server: the console says so while it waits for the throw
    ref.wait_for_function("document.getElementById('r-note').textContent.startsWith('카메라 없이')")
    server.inject_reading(match_id, result="개", confidence=0.95)
    ref.wait_for_selector("#r-confirm:not([hidden])").click()
    ref.wait_for_function("[...document.querySelectorAll('#pending .chip')].map(c => c.textContent).join() === '개'")
    # the move is not made yet: a reading arrives
    server.inject_reading(match_id, result="도", confidence=0.95)
    ref.wait_for_function("document.getElementById('r-confirm').textContent.includes('도')")
    assert ref.locator("#r-confirm").is_disabled()
    assert ref.locator("#results .result:not([disabled])").count() == 0
    assert "말을 다 쓴 뒤에" in ref.inner_text("#r-note")
    assert "waits" in (ref.get_attribute("#reading-card", "class") or "")
    assert "말 쓰는 중" in ref.inner_text("#reading-title")
    assert ref.locator("#r-dismiss").is_enabled()
    seq = live_state(server, match_id)["seq"]
    # the move made, the same reading can be confirmed for the next team
    ref.click("#tray0 .tray-piece.selectable")
    ref.click('.yut-board .target[data-to="개"]')
    ref.wait_for_function("!document.getElementById('r-confirm').disabled")
    assert "waits" not in (ref.get_attribute("#reading-card", "class") or "")
    assert ref.locator('#results .result[data-result="도"]').is_enabled()
    ref.click("#r-confirm")
    ref.wait_for_function("[...document.querySelectorAll('#pending .chip')].map(c => c.textContent).join() === '도'")
    events = server.referee().get(f"/api/matches/{match_id}/events")[1]
    assert len(events) == seq + 2  # the move, then the throw: nothing was refused on the way
    assert events[-1]["event"]["type"] == "throw" and events[-1]["event"]["team"] == 1
    assert js_errors(ref) == []


def test_spectator_cannot_write(live_server_module: LiveServer, open_page: Callable[..., Any]) -> None:
    server = live_server_module
    match_id = server.create_match()
    page = scoreboard(open_page, server, match_id)
    before = live_state(server, match_id)
    attempts = page.evaluate(
        """async (id) => {
            const out = [];
            const body = JSON.stringify({event: {type: "throw", team: 0, result: "모"}});
            for (const headers of [{"Content-Type": "application/json"},
                                   {"Content-Type": "application/json", "X-CSRF-Token": "forged"}]) {
                const r = await fetch(`/api/matches/${id}/events`, {method: "POST", headers, body});
                out.push([r.status, await r.json()]);
            }
            const r = await fetch(`/api/matches/${id}/reading/confirm`,
                {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({result: "모"})});
            out.push([r.status, await r.json()]);
            const m = await fetch("/api/matches", {method: "POST", headers: {"Content-Type": "application/json"},
                                  body: JSON.stringify({teams: []})});
            out.push([m.status, await m.json()]);
            return out;
        }""",
        match_id,
    )
    for status, body in attempts:
        assert status in (401, 403), (status, body)
        assert body["error"] and "rule" in body
    after = live_state(server, match_id)
    assert after["seq"] == before["seq"] and after["teams"] == before["teams"]
    assert len(server.referee().get("/api/matches")[1]) >= 1
    # and the console itself sends spectators to the login
    page.goto(f"{server.url}/referee")
    assert "/referee/login" in page.url


def test_refused_action_shows_the_rule_in_words(live_server_module: LiveServer, open_page: Callable[..., Any]) -> None:
    server = live_server_module
    match_id = server.create_match()
    ref = console(open_page, server, match_id)
    seq = ref.evaluate("Number(document.body.dataset.seq)")
    # an over-time warning for the team that is not on the clock (청룡 throws first)
    ref.click("#a-warning")
    dialog = ref.locator("#dlg-warning")
    dialog.locator('input[name="team"][value="1"] + span').click()
    dialog.locator('input[name="reason"][value="throw_time"] + span').click()
    dialog.locator('button[value="ok"]').click()
    toast = ref.wait_for_selector("#toast:not([hidden])")
    text = toast.inner_text()
    assert "규정에 맞지 않아 거부됨" in text and "규정: 시간 규정" in text, text
    assert live_state(server, match_id)["seq"] == seq
    assert live_state(server, match_id)["match"]["warning_counts"] == [0, 0]


def test_setup_and_throw_off_in_console(live_server_module: LiveServer, open_page: Callable[..., Any]) -> None:
    server = live_server_module
    first = server.create_match()
    ref = console(open_page, server, first)
    ref.click("#btn-new")
    form = ref.locator("#setup-form")
    for t, (name, throwers, mover) in enumerate([("주작", ["가", "나", "다"], "라"), ("현무", ["마", "바", "사"], "아")]):
        form.locator(f'input[name="name{t}"]').fill(name)
        for i, who in enumerate(throwers):
            form.locator(f'input[name="t{t}_{i}"]').fill(who)
        form.locator(f'input[name="mover{t}"]').fill(mover)
    form.locator('input[name="reserves0"]').fill("자, 차")
    form.locator('input[name="first"][value="throwoff"]').check()
    form.locator('button[type="submit"]').click()
    ref.wait_for_function("document.title.includes('주작')")
    new_id = int(ref.evaluate("document.body.dataset.matchId"))
    assert new_id != first
    assert "선공 결정" in ref.inner_text("#s-turn")
    ref.click('#results .result[data-result="개"]')   # 주작's captain
    ref.wait_for_function("document.getElementById('s-next').textContent.includes('주작 개')")
    ref.click('#results .result[data-result="윷"]')   # 현무's captain: higher, attacks first
    ref.wait_for_function("document.getElementById('s-turn').textContent.includes('현무 차례')")
    state = live_state(server, new_id)
    assert state["turn"] == 1 and state["match"]["lineups"][0]["reserves"] == ["자", "차"]
    assert state["match"]["first"] == 1


def test_undo_substitution_and_timeout_from_console(
    live_server_module: LiveServer, open_page: Callable[..., Any]
) -> None:
    server = live_server_module
    match_id, board_page, ref = new_match_on_both(open_page, server)

    # a wrong result confirmed by mistake is undone (and the undo stays in the record)
    ref.click('#results .result[data-result="모"]')
    board_page.wait_for_function("[...document.querySelectorAll('#pending .chip')].map(c => c.textContent).join() === '모'")
    ref.click("#a-undo")
    ref.locator("#dlg-confirm button[value='ok']").click()
    board_page.wait_for_function("document.querySelectorAll('#pending .chip').length === 0")
    events = [e["event"]["type"] for e in server.referee().get(f"/api/matches/{match_id}/events")[1]]
    assert events[-2:] == ["throw", "undo"]

    # 청룡 swaps 다온 for the reserve 바다
    ref.click("#a-sub")
    dialog = ref.locator("#dlg-sub")
    dialog.locator("#sub-out").select_option("다온")
    dialog.locator("#sub-in").select_option("바다")
    dialog.locator('button[value="ok"]').click()
    board_page.wait_for_function("document.querySelector('#team0 .lineup').textContent.includes('바다')")
    assert board_page.inner_text("#team0 .v-sub") == "0"
    assert "다온" not in board_page.inner_text("#team0 .lineup")

    # 작전타임 for 백호: both pages show it; the button counts down what is left
    ref.click("#a-timeout1")
    board_page.wait_for_function("document.getElementById('shot-label').textContent.includes('작전타임')")
    assert board_page.inner_text("#team1 .v-timeout") == "1"
    ref.wait_for_function("document.getElementById('a-timeout-end').disabled === false")
    ref.click("#a-timeout-end")
    board_page.wait_for_function("!document.getElementById('shot-label').textContent.includes('작전타임')")

    # a stoppage with its reason stops the clocks on every screen, then play resumes
    ref.click("#a-stop")
    ref.locator('#dlg-stop input[value="부상"] + span').click()
    ref.locator('#dlg-stop button[value="ok"]').click()
    board_page.wait_for_function("document.getElementById('clock-label').textContent === '경기 중단 — 부상'")
    stopped = board_page.inner_text("#match-clock")
    assert board_page.locator("#match-clock.stopped").count() == 1
    ref.wait_for_function("document.getElementById('a-resume').disabled === false")
    ref.click("#a-resume")
    board_page.wait_for_function("document.getElementById('clock-label').textContent === '경기 시간'")
    assert board_page.inner_text("#match-clock") <= stopped  # it never runs back

    # 나래 throws although 가람 is next: the turn is 낙 and passes to 백호
    ref.click("#a-wrong")
    ref.locator("#wrong-thrower").select_option("나래")
    ref.locator('#dlg-wrong button[value="ok"]').click()
    board_page.wait_for_function("document.getElementById('turn-team').textContent.includes('백호')")
    assert [e["event"]["type"] for e in server.referee().get(f"/api/matches/{match_id}/events")[1]][-1] == "wrong_thrower"
    assert js_errors(board_page) == [] and js_errors(ref) == []


def test_time_up_shows_the_judged_result(live_server_module: LiveServer, open_page: Callable[..., Any]) -> None:
    server = live_server_module
    match_id = server.create_match()
    page = scoreboard(open_page, server, match_id)
    for event in ({"type": "throw", "team": 0, "result": "걸"}, {"type": "move", "team": 0, "result": "걸", "piece": 0},
                  {"type": "time_up"}):
        server.post_event(match_id, event)
    result = page.wait_for_selector("#result:not([hidden])")
    text = result.inner_text()
    # both have nothing finished; 청룡 has a piece on the board, 백호 none: decided by pieces on the board
    assert "청룡 승리" in text and "판 위의 말이 더 많음" in text, text
    assert page.locator("#result tr.decider th").inner_text() == "판 위의 말"
    assert page.inner_text("#clock-label") == "경기 종료"
    assert page.inner_text("#shot-clock") == "--"


CLOCK_CASES = [
    (1200, "20:00"),
    (1199.01, "20:00"),  # seconds rounded up, as on the LED timer
    (1199, "19:59"),
    (61, "01:01"),
    (60.5, "01:01"),
    (60, "01:00"),
    (59.99, "00:59.9"),
    (9.05, "00:09.0"),
    (0.04, "00:00.0"),
    (-3, "00:00.0"),
]


def test_clock_format_tenths_in_the_last_minute(live_server_module: LiveServer, open_page: Callable[..., Any]) -> None:
    page = open_page(390, 844)
    page.goto(live_server_module.url + "/api/board")
    got = page.evaluate(
        "async (cases) => { const m = await import('/static/live.js'); return cases.map(([s]) => m.formatClock(s)); }",
        CLOCK_CASES,
    )
    assert got == [text for _, text in CLOCK_CASES]


def _led_match_text(remaining: float) -> str:
    return compose(TimerState(match_remaining=remaining), 0.0).match_text


def test_screens_show_the_same_second_as_the_led_timer(live_server_module: LiveServer,
                                                       open_page: Callable[..., Any]) -> None:
    """Above the last minute the screens' MM:SS is what the LED shows (display.compose), on
    whole seconds, just past them and just before them (the console once rounded down)."""
    rng = random.Random(20261130)
    cases = [1200.0, 1199.999, 1199.001, 1199.0, 1083.0, 1082.5, 61.0, 60.001, 60.0]
    cases += [round(rng.uniform(60, 1200), 3) for _ in range(40)]
    page = open_page(390, 844)
    page.goto(live_server_module.url + "/api/board")
    got = page.evaluate(
        "async (cases) => { const m = await import('/static/live.js'); return cases.map(m.formatClock); }", cases
    )
    assert dict(zip(cases, got)) == {r: _led_match_text(r) for r in cases}


def test_console_led_panel_follows_the_timer(live_server_module: LiveServer, open_page: Callable[..., Any]) -> None:
    """The console's LED panel asks for /api/timer at least every 0.25 s of page time and
    shows each answer (page time is Playwright's fake clock; the answers are routed)."""
    server = live_server_module
    page = console(open_page, server, server.create_match())
    asked: list[int] = []
    now = [0]

    def answer(route: Any) -> None:
        asked.append(now[0])
        seconds = 1199 - len(asked)
        route.fulfill(json={"text": f"{seconds // 60:02d}:{seconds % 60:02d} 10", "match": "", "shot": "10",
                            "alert": False})

    page.route("**/api/timer", answer)
    page.clock.install()
    page.reload()
    page.wait_for_selector("body[data-seq]")
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    asked.clear()
    shown: set[str] = set()
    step = 50
    for _ in range(60):  # 3 s of page time
        page.clock.run_for(step)
        now[0] += step
        shown.add(page.inner_text("#led-text"))
    gaps = [b - a for a, b in zip(asked, asked[1:])]
    assert len(asked) >= 12 and max(gaps) <= 250, asked
    answers = [1199 - n for n in range(1, len(asked))]  # all but the last, which may be on its way
    assert {f"{s // 60:02d}:{s % 60:02d} 10" for s in answers} <= shown


def test_piece_finishes_through_the_console(live_server_module: LiveServer, open_page: Callable[..., Any]) -> None:
    server = live_server_module
    match_id = server.create_match()
    ref = server.referee()
    for event in (
        {"type": "throw", "team": 0, "result": "모"}, {"type": "throw", "team": 0, "result": "걸"},
        {"type": "move", "team": 0, "result": "모", "piece": 0},
        {"type": "move", "team": 0, "result": "걸", "piece": 0, "to": "방"},
        {"type": "throw", "team": 1, "result": "도"}, {"type": "move", "team": 1, "result": "도", "piece": 0},
        {"type": "throw", "team": 0, "result": "윷"}, {"type": "throw", "team": 0, "result": "개"},
    ):
        server.post_event(match_id, event, ref)
    board_page = scoreboard(open_page, server, match_id)
    page = console(open_page, server, match_id)
    page.click('.yut-board .piece.team0.selectable[data-at="방"]')
    # from 방 (diagonal from 모): 윷 goes straight to 날도 or turns home past 참먹이; 개 to 속모 or 안찌
    targets = {t.get_attribute("data-to"): t.query_selector(".target-label").text_content()
               for t in page.query_selector_all(".yut-board .target")}
    assert targets == {"날도": "윷", "났음": "윷", "속모": "개", "안찌": "개"}
    assert page.locator(".yut-board .start-label").is_hidden()  # the 났음 target takes its place
    page.click('.yut-board .target[data-to="났음"]')
    board_page.wait_for_function("document.querySelectorAll('#team0 .tray-pieces.finished svg').length === 1")
    assert board_page.locator(".yut-board .piece.team0:not(.ghost)").count() == 0
    assert [c.strip() for c in board_page.locator("#pending .chip").all_inner_texts()] == ["개"]
