// One WebSocket for the page: signs in with the stored token, and reconnects by itself with
// backoff. `onFrame` receives every server frame; `onStatus` hears 'open' / 'reconnecting'.

export function connect(token, { onFrame, onStatus, onOpen }) {
  let ws = null;
  let attempt = 0;
  let closedByUs = false;
  /** Whether this socket's hello was welcomed: until then frames wait in `queue`. */
  let signedIn = false;
  const queue = [];

  function open() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    ws = new WebSocket(`${scheme}://${location.host}/ws`);
    signedIn = false;
    ws.onopen = () => {
      ws.send(JSON.stringify({ t: 'hello', token }));
      onStatus('open');
      onOpen();
    };
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      onFrame(frame);
      // Signed in, not merely open, is what counts: a hello that fails on the server's side
      // (its database away) closes the socket. So the wait starts over only now (such a
      // server is asked ever less often, not twice a second), and what was asked meanwhile
      // goes only now (sent behind the hello, it would be lost with the socket).
      if (frame.t === 'welcome') {
        attempt = 0;
        signedIn = true;
        while (queue.length) ws.send(queue.shift());
      }
    };
    ws.onclose = () => {
      if (closedByUs) return;
      onStatus('reconnecting');
      // 0.5 s, 1 s, 2 s … up to 8 s, with jitter so a restarted server is not stampeded.
      const delay = Math.min(8000, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.5);
      attempt += 1;
      setTimeout(open, delay);
    };
  }

  open();
  return {
    send(frame) {
      const text = JSON.stringify(frame);
      if (ws && ws.readyState === WebSocket.OPEN && signedIn) ws.send(text);
      else queue.push(text);
    },
    close() {
      closedByUs = true;
      ws?.close();
    },
  };
}
