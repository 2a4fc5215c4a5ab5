"""Servers, a raw RESP client and a small test runner for the Redis module
tests. Python 3 standard library only (redis-py is used by the tests that
show its bloom commands and its cluster client work unchanged).

Every server runs in its own process group, listens on 127.0.0.1 on a port
picked free here, keeps its files in its own directory under the run's
temporary directory, and is killed at exit whatever happens (normal end,
exception, SIGINT/SIGTERM)."""

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

REDIS_SERVER = os.environ.get("REDIS_SERVER", "redis-server")
REDIS_CLI = os.environ.get("REDIS_CLI", "redis-cli")

# ---------------------------------------------------------------- RESP


class Error(Exception):
    """An error reply; str() is the full text, e.g. 'ERR not found'."""

    def __eq__(self, other):
        return isinstance(other, Error) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __repr__(self):
        return "Error(%r)" % str(self)


class Client:
    """A blocking RESP2/RESP3 client returning replies as Python values:
    bytes, int, None, list, dict (RESP3 maps), bool, float, Error (error
    replies are returned, not raised, so tests compare their exact text)."""

    def __init__(self, port, host="127.0.0.1", timeout=60):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = bytearray()
        self.port = port

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    @staticmethod
    def encode(args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            if isinstance(a, str):
                a = a.encode()
            elif isinstance(a, int):
                a = b"%d" % a
            elif isinstance(a, float):
                a = repr(a).encode()
            out.append(b"$%d\r\n" % len(a))
            out.append(a)
            out.append(b"\r\n")
        return b"".join(out)

    def send(self, *cmds):
        self.sock.sendall(b"".join(self.encode(c) for c in cmds))

    def _fill(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("connection closed by the server")
        self.buf += chunk

    def _line(self):
        while True:
            i = self.buf.find(b"\r\n")
            if i >= 0:
                line = bytes(self.buf[:i])
                del self.buf[: i + 2]
                return line
            self._fill()

    def _bytes(self, n):
        if n >= (1 << 20) and len(self.buf) < n + 2:
            # A large bulk string: receive straight into its buffer.
            out = bytearray(n + 2)
            have = len(self.buf)
            out[:have] = self.buf
            self.buf.clear()
            view = memoryview(out)
            while have < n + 2:
                got = self.sock.recv_into(view[have:])
                if not got:
                    raise ConnectionError("connection closed by the server")
                have += got
            view.release()
            del out[n:]
            return bytes(out)
        while len(self.buf) < n + 2:
            self._fill()
        data = bytes(self.buf[:n])
        del self.buf[: n + 2]
        return data

    def read(self):
        line = self._line()
        t, rest = line[:1], line[1:]
        if t == b"+":
            return rest
        if t == b"-":
            return Error(rest.decode(errors="replace"))
        if t == b":":
            return int(rest)
        if t == b"$":
            n = int(rest)
            return None if n < 0 else self._bytes(n)
        if t in (b"*", b"~", b">"):
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        if t == b"%":
            n = int(rest)
            d = {}
            for _ in range(n):
                k = self.read()
                d[k] = self.read()
            return d
        if t == b"_":
            return None
        if t == b"#":
            return rest == b"t"
        if t == b",":
            return float(rest)
        if t == b"(":
            return int(rest)
        if t in (b"!", b"="):
            return self._bytes(int(rest))
        raise ValueError("bad reply type %r" % line)

    def __call__(self, *args):
        self.send(args)
        return self.read()

    def pipeline(self, cmds):
        """Sends every command, then reads every reply (in batches so
        neither side's buffers fill up)."""
        out = []
        for i in range(0, len(cmds), 1000):
            batch = cmds[i : i + 1000]
            self.send(*batch)
            out.extend(self.read() for _ in batch)
        return out


# ---------------------------------------------------------------- servers

_servers = []
_tmp_root = None


def tmp_root():
    global _tmp_root
    if _tmp_root is None:
        _tmp_root = tempfile.mkdtemp(prefix="bf-redis-tests-")
    return _tmp_root


def _port_free(p):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind(("127.0.0.1", p))
        return True
    except OSError:
        return False
    finally:
        s.close()


_used_ports = set()


def free_port(cluster=False):
    """A loopback port nothing listens on (and, for a cluster node, whose
    bus port, port + 10000, is free too)."""
    for _ in range(1000):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.1", 0))
        p = s.getsockname()[1]
        s.close()
        if p in _used_ports:
            continue
        if cluster and (p > 55000 or not _port_free(p + 10000)):
            continue
        _used_ports.add(p)
        return p
    raise RuntimeError("no free port")


class Server:
    """One redis-server with the module loaded."""

    def __init__(self, module, name="server", module_args=(), config=None, env=None, cluster=False):
        self.module = module
        self.name = name
        self.module_args = list(module_args)
        self.config = dict(config or {})
        self.env = env
        self.cluster = cluster
        self.port = free_port(cluster)
        self.dir = os.path.join(tmp_root(), "%s-%d" % (name, self.port))
        os.makedirs(self.dir, exist_ok=True)
        self.proc = None
        self.log = os.path.join(self.dir, "redis.log")

    def conf_lines(self):
        c = {
            "port": str(self.port),
            "bind": "127.0.0.1",
            "dir": self.dir,
            "save": '""',
            "appendonly": "no",
            "enable-debug-command": "yes",
            "protected-mode": "no",
            "daemonize": "no",
            "loglevel": "notice",
            "logfile": '""',
        }
        if self.cluster:
            c.update({
                "cluster-enabled": "yes",
                "cluster-config-file": os.path.join(self.dir, "nodes.conf"),
                "cluster-node-timeout": "2000",
                "cluster-port": str(self.port + 10000),
            })
        c.update(self.config)
        lines = ["%s %s" % (k, v) for k, v in c.items()]
        lines.append("loadmodule %s %s" % (self.module, " ".join(self.module_args)))
        return lines

    def start(self, wait=True):
        conf = os.path.join(self.dir, "redis.conf")
        with open(conf, "w") as f:
            f.write("\n".join(self.conf_lines()) + "\n")
        env = dict(os.environ)
        if self.env:
            env.update(self.env)
        logf = open(self.log, "ab")
        self.proc = subprocess.Popen([REDIS_SERVER, conf], stdout=logf, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True, env=env)
        logf.close()
        if self not in _servers:
            _servers.append(self)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("%s exited (%s):\n%s" % (self.name, self.proc.returncode, self.log_tail()))
            try:
                c = Client(self.port, timeout=5)
                r = c("PING")
                c.close()
                if r == b"PONG":
                    return
                if isinstance(r, Error) and "LOADING" in str(r):
                    time.sleep(0.05)
                    continue
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("%s did not answer:\n%s" % (self.name, self.log_tail()))

    def client(self, timeout=60):
        return Client(self.port, timeout=timeout)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, n=30):
        try:
            with open(self.log, errors="replace") as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return ""

    def _signal_group(self, sig):
        try:
            os.killpg(self.proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    def kill(self):
        """SIGKILL, no shutdown (a crash, as far as the cluster can tell)."""
        if self.proc and self.proc.poll() is None:
            self._signal_group(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self, save=False):
        if not self.proc or self.proc.poll() is not None:
            return
        try:
            c = Client(self.port, timeout=30)
            c.send(("SHUTDOWN", "SAVE" if save else "NOSAVE"))
            try:
                c.read()
            except (OSError, ConnectionError):
                pass
            c.close()
            self.proc.wait(timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self._signal_group(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self, save=False):
        self.stop(save=save)
        return self.start()


def stop_all():
    for s in list(_servers):
        try:
            if s.proc and s.proc.poll() is None:
                s._signal_group(signal.SIGKILL)
                s.proc.wait(timeout=10)
        except Exception:
            pass


def cleanup(keep=False):
    stop_all()
    if _tmp_root and not keep:
        shutil.rmtree(_tmp_root, ignore_errors=True)


def _on_signal(signum, frame):
    cleanup()
    sys.exit(128 + signum)


atexit.register(stop_all)
signal.signal(signal.SIGTERM, _on_signal)
signal.signal(signal.SIGINT, _on_signal)

# ---------------------------------------------------------------- runner

TESTS = []


def test(fn):
    """Registers a test: a function taking the run's context."""
    TESTS.append(fn)
    return fn


class Failure(AssertionError):
    pass


def check(cond, msg="check failed"):
    if not cond:
        raise Failure(msg)


def eq(got, want, what=""):
    if got != want:
        raise Failure("%s: got %r, want %r" % (what or "value", got, want))


def err(reply, text, what=""):
    """The reply is the error with exactly this text."""
    if not isinstance(reply, Error) or str(reply) != text:
        raise Failure("%s: got %r, want error %r" % (what or "reply", reply, text))


class Context:
    def __init__(self, module, large=False, verbose=False):
        self.module = module
        self.large = large
        self.verbose = verbose
        self.figures = {}

    def server(self, name="server", **kw):
        return Server(self.module, name=name, **kw).start()


def run(ctx, tests, name_filter=None):
    passed = failed = 0
    for fn in tests:
        name = fn.__module__.split(".")[-1] + "." + fn.__name__
        if name_filter and name_filter not in name:
            continue
        t0 = time.time()
        try:
            fn(ctx)
            passed += 1
            print("ok   %-55s %6.2fs" % (name, time.time() - t0), flush=True)
        except Exception as e:
            failed += 1
            print("FAIL %-55s %6.2fs" % (name, time.time() - t0), flush=True)
            if isinstance(e, Failure):
                print("     " + str(e), flush=True)
            else:
                traceback.print_exc()
        finally:
            # Servers a test started are stopped by it or here.
            stop_all()
            _servers.clear()
    return passed, failed
