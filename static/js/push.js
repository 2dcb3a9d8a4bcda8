// Web Push on this device: the browser subscribes with the server's key and gives the server
// its subscription, so that a move over days, a challenge or a tournament about to start
// reaches the player while the site is closed. The service worker shows what arrives.

import * as api from './api.js';

/** Whether this browser can receive pushes (a service worker, the Push API, notifications). */
export function pushSupported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The base64url key as the bytes `applicationServerKey` takes. @param {string} key */
function keyBytes(key) {
  const base64 = key.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(key.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** This device's subscription, if it has one. */
export async function currentSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Subscribes this device (asking for permission: call it from the player's press) and gives
 * the subscription to the server. Resolves to the account's push settings; throws when the
 * player refuses or the browser cannot.
 */
export async function subscribeThisDevice() {
  if (!pushSupported()) throw new Error('push unsupported');
  if (Notification.permission !== 'granted' && (await Notification.requestPermission()) !== 'granted') {
    throw Object.assign(new Error('notifications refused'), { code: 'notifications_refused' });
  }
  const view = await api.pushSettings();
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made with another server key (the server's was replaced) is useless.
  const wanted = keyBytes(view.public_key);
  const key = subscription?.options.applicationServerKey;
  if (subscription && key && !sameBytes(new Uint8Array(key), wanted)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: wanted });
  return api.addPushSubscription(subscription.toJSON());
}

/** Unsubscribes this device, at the browser and at the server. */
export async function unsubscribeThisDevice() {
  const subscription = await currentSubscription();
  if (!subscription) return api.pushSettings();
  const view = await api.removePushSubscription(subscription.endpoint);
  await subscription.unsubscribe();
  return view;
}

/** @param {Uint8Array} a @param {Uint8Array} b */
function sameBytes(a, b) {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
