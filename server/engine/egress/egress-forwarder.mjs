// The egress forwarder: the first program of a setup sandbox, whose network namespace holds only
// loopback. It listens on an ephemeral port of the namespace's 127.0.0.1, pipes every connection
// to the egress proxy's unix socket (bound into the sandbox), points the proxy variables at that
// port, runs the setup command with inherited stdio and exits as it does. It decides nothing:
// the proxy on the host side checks every destination, so a command that talks to the socket
// itself gains nothing. Plain JavaScript (no loader), so the sandbox needs only node.
//
// Usage: node egress-forwarder.mjs SOCKET VARIABLES -- COMMAND [ARGS...]
//   VARIABLES: comma-separated names set to http://127.0.0.1:PORT for the command.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { constants } from 'node:os';
import { setTimeout } from 'node:timers';

const failedMarker = 'shadowbox-egress: failed: ';
const failedExitCode = 125;

function fail(message) {
  process.stderr.write(`${failedMarker}${message}\n`);
  process.exit(failedExitCode);
}

const args = process.argv.slice(2);
const [socketPath, variables, separator, program, ...programArgs] = args;
if (socketPath === undefined || variables === undefined || separator !== '--' || !program) {
  fail('usage: egress-forwarder.mjs SOCKET VARIABLES -- COMMAND [ARGS...]');
}

const server = net.createServer((local) => {
  const remote = net.connect(socketPath);
  const closeBoth = () => {
    local.destroy();
    remote.destroy();
  };
  local.on('error', closeBoth);
  remote.on('error', closeBoth);
  local.on('close', closeBoth);
  remote.on('close', closeBoth);
  local.pipe(remote);
  remote.pipe(local);
});
server.on('error', (error) => fail(`cannot listen on 127.0.0.1: ${error.message}`));

const forwarded = ['SIGTERM', 'SIGINT', 'SIGHUP'];

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env };
  for (const name of variables.split(',').filter(Boolean)) env[name] = url;
  const child = spawn(program, programArgs, { stdio: 'inherit', env });
  child.on('error', (error) => fail(`cannot run ${program}: ${error.message}`));
  for (const signal of forwarded) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    server.close();
    if (signal === null) process.exit(code ?? 1);
    // Die of the same signal, as a shell would report it; 128 + n where it cannot (PID 1).
    for (const name of forwarded) process.removeAllListeners(name);
    process.kill(process.pid, signal);
    setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100).unref();
  });
});
