"""The merge-tree picker of the vocabulary in a real Chromium: stepping from step 0 keeps showing this step's new
token (the picker's default option is named differently at step 0 and after, and the browser sent the old name
back as a typed token)."""

from __future__ import annotations

import re

import pytest
from browser import assert_no_exception, open_app, save_screenshot, wait_for_server_step
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_stepping_from_step_0_shows_each_new_tokens_tree(app_server, page):
    open_app(page, f"{app_server}/")
    tree = page.locator("#bpe-tree")
    for step, root in ((1, "es"), (2, "est")):
        page.get_by_role("button", name=re.compile("Next")).click()
        wait_for_server_step(page, step)
        assert_no_exception(page)
        expect(page.get_by_text("No such token in the vocabulary")).to_have_count(0)
        expect(tree).to_contain_text(f"step {step}")
        assert tree.locator(".bpe-chip").first.inner_text().strip() == root
    tree.scroll_into_view_if_needed()
    save_screenshot(page, "merge-tree-step-2")
