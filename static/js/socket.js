// One WebSocket for the page: signs in with the stored token, and reconnects by itself with
// backoff. `onFrame` receives every server frame; `onStatus` hears 'open' / 'reconnecting'.

export function connect(token, { onFrame, onStatus, onOpen }) {
  let ws = null;
  let attempt = 0;
  let closedByUs = false;
  const queue = [];

  function open() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    ws = new WebSocket(`${scheme}://${location.host}/ws`);
    ws.onopen = () => {
      ws.send(JSON.stringify({ t: 'hello', token }));
      onStatus('open');
      onOpen();
      while (queue.length) ws.send(queue.shift());
    };
    ws.onmessage = (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      // Back to the shortest wait once signed in, not once open: a server that cannot sign
      // anyone in (its database away) closes each socket after hello, and must be asked
      // ever less often, not twice a second.
      if (frame.t === 'welcome') attempt = 0;
      onFrame(frame);
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
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(text);
      else queue.push(text);
    },
    close() {
      closedByUs = true;
      ws?.close();
    },
  };
}
