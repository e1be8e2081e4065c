"""Walking a merge tree in a real Chromium: a press on a part's button goes down to that part's tree, a press on a
token made from it goes back up; the GPT page's tokens that live inside others and GPT-2's under-trained tokens.
Screenshots at a projector's 1280x720 and a phone's 390x844."""

from __future__ import annotations

import pytest
from browser import assert_no_exception, open_app, rerun, save_screenshot
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def walk_button(page, label: str):
    """The walk's button shown as ``label`` (a pill: its text, not an accessible name, is what a student reads)."""
    buttons = page.locator("[data-testid*='stButtonGroup'] button")
    return buttons.filter(has_text=label).first


def test_walking_down_to_a_part_and_back_up(app_server, page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{app_server}/?step=8")
    tree, up = page.locator("#bpe-tree"), page.locator("#bpe-tree-up")
    assert tree.locator(".bpe-chip").first.inner_text().strip() == "newest</w>"
    expect(up).to_contain_text("No token was made from newest</w>")
    with rerun(page):
        walk_button(page, "↓ est</w>").click()
    assert_no_exception(page)
    assert tree.locator(".bpe-chip").first.inner_text().strip() == "est</w>"
    expect(up).to_contain_text("1 token was made directly from est</w>")
    up.scroll_into_view_if_needed()
    save_screenshot(page, "tree-walk/stepper-1280")
    with rerun(page):
        walk_button(page, "↑ newest</w>").click()
    assert tree.locator(".bpe-chip").first.inner_text().strip() == "newest</w>"
    page.set_viewport_size({"width": 390, "height": 844})
    tree.scroll_into_view_if_needed()
    save_screenshot(page, "tree-walk/stepper-390")


def test_gpt_page_glitch_tokens_on_a_projector_and_a_phone(app_server, page):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(page, f"{app_server}/Real_tokenizers")
    table = page.locator("#rt-glitch")
    box = page.get_by_text("Show the tokens, their merge trees and GPT-2's under-trained tokens")
    box.scroll_into_view_if_needed()
    expect(table).to_have_count(0)  # closed: not counted
    with rerun(page):
        box.click()
    expect(table.locator("tr[data-id]")).to_have_count(26)
    expect(table.locator("tr[data-id='40241']")).to_contain_text("BuyableInstoreAndOnline")
    assert_no_exception(page)
    page.locator("#rt-inside").scroll_into_view_if_needed()
    save_screenshot(page, "tree-walk/gpt-inside-1280")
    table.scroll_into_view_if_needed()
    save_screenshot(page, "tree-walk/gpt-glitch-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    table.scroll_into_view_if_needed()
    save_screenshot(page, "tree-walk/gpt-glitch-390")
