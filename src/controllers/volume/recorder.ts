// The event recorders of the binder and the provisioner. Event names are
// `<object>.<hex nanoseconds>` from a millisecond clock, unique per recorder
// only: the binder and the provisioner writing about one claim in the same
// millisecond pick the same name, and the later event would be dropped as
// AlreadyExists. Here a create meeting a taken name is made again with the
// next nanosecond (the correlator keeps the name the server answered with).
// To be dropped once event names are unique across the process's recorders.
import { isReason } from '../informer.js';
import type { ControllerContext } from '../context.js';
import { EventRecorder, coreEventSink, type CoreEventSink } from '../events.js';

const ATTEMPTS = 8;

/** `<object>.<hex>` with the hex one higher. */
export function nextEventName(name: string): string {
  const dot = name.lastIndexOf('.');
  const hex = name.slice(dot + 1);
  if (dot < 0 || !/^[0-9a-f]+$/.test(hex)) return `${name}.1`;
  return `${name.slice(0, dot)}.${(BigInt(`0x${hex}`) + 1n).toString(16)}`;
}

export function volumeRecorder(ctx: ControllerContext, serviceAccount: string, component: string): EventRecorder {
  const base = coreEventSink(ctx.client(serviceAccount));
  const sink: CoreEventSink = {
    patch: (e, p) => base.patch(e, p),
    async create(e) {
      let event = e;
      for (let i = 1; ; i++) {
        try {
          return await base.create(event);
        } catch (err) {
          if (!isReason(err, 'AlreadyExists') || i >= ATTEMPTS) throw err;
          event = { ...event, metadata: { ...event.metadata, name: nextEventName(event.metadata.name) } };
        }
      }
    },
  };
  return new EventRecorder(undefined, component, '', { sink });
}
