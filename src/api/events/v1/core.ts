// Core v1 types an events/v1 Event refers to (ObjectReference is discovery/v1's stand-in).
// TODO(core): use src/api/core/v1 once it lands.
import { obj, str } from '../../../schema/index.js';

export { ObjectReference } from '../../discovery/v1/core.js';

export const EventSource = obj({
  component: str().desc('The component that reported the event.'),
  host: str().desc('The node the event was reported from.'),
})
  .id('io.k8s.api.core.v1.EventSource')
  .desc('The reporter of a core v1 event.');
