"""The nginx site file the deployment guide gives (``deploy/nginx/bpe-explorer.conf``) is the one the tests run: the
tests change its listen address and its replicas' addresses (the upstream's server lines and the route map's
replica lines) and nothing else, and the real nginx accepts the result.
(The browser tests through it: ``tests/test_shared_store_browser.py``.)"""

from __future__ import annotations

import difflib
import re
import subprocess

from nginx_server import SITE_CONF, NginxProxy, site_config


def test_the_tests_change_only_the_listen_line_and_the_replicas_addresses():
    shipped = SITE_CONF.read_text(encoding="utf-8").splitlines()
    ours = site_config("127.0.0.1:4321", ["127.0.0.1:5001", "127.0.0.1:5002", "10.0.0.7:8501"]).splitlines()
    changed = [line for line in difflib.ndiff(shipped, ours) if line[:2] in ("- ", "+ ")]
    assert {line for line in changed if line.startswith("- ")} == {
        "-     listen 80;", "-     server 127.0.0.1:8501;", "-     server 127.0.0.1:8502;",
        "-     127.0.0.1:8501 127.0.0.1:8501;", "-     127.0.0.1:8502 127.0.0.1:8502;",
    }  # fmt: skip
    assert [line for line in changed if line.startswith("+ ")] == [
        "+     127.0.0.1:5001 127.0.0.1:5001;", "+     127.0.0.1:5002 127.0.0.1:5002;",
        "+     10.0.0.7:8501 10.0.0.7:8501;",
        "+     server 127.0.0.1:5001;", "+     server 127.0.0.1:5002;", "+     server 10.0.0.7:8501;",
        "+     listen 127.0.0.1:4321;",
    ]  # fmt: skip


def test_the_site_file_sticks_on_cookies_and_passes_websockets_on():
    text = SITE_CONF.read_text(encoding="utf-8")
    directives = re.sub(r"#[^\n]*", "", text)  # what nginx reads, without the comments
    assert "hash $bpe_replica_key consistent;" in directives and "ip_hash" not in directives
    # A browser goes to the replica its route cookie names (set from $upstream_addr), else to the upstream.
    assert "proxy_pass http://$bpe_route;" in directives and "error_page 502 504 = @bpe_any;" in directives
    assert "add_header Set-Cookie $bpe_route_set_cookie always;" in directives
    assert "proxy_set_header Upgrade $http_upgrade;" in directives
    assert "proxy_set_header Host $http_host;" in directives
    assert re.search(r"client_max_body_size\s+26m;", directives)  # Streamlit's maxUploadSize 25 MB + envelope
    config = (SITE_CONF.parents[2] / ".streamlit" / "config.toml").read_text(encoding="utf-8")
    assert re.search(r"^maxUploadSize = 25$", config, re.M)


def test_nginx_accepts_the_configuration_the_tests_run():
    proxy = NginxProxy(["127.0.0.1:5001", "127.0.0.1:5002"])
    conf = proxy.write_config()
    check = subprocess.run(proxy.command("-t"), capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stderr
    assert "syntax is ok" in check.stderr and str(conf) in check.stderr
