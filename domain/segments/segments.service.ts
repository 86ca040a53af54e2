// The segment use cases (a file per group of them), as the routes and other domains use them.
export { compileForProject, segmentDefinitions, type SegmentInput } from './segment-rules.js';
export { toSegmentView, type SegmentView } from './segment-view.js';
export { createSegment, deleteSegment, updateSegment } from './edit-segment.js';
export { getSegment, listSegmentContacts, listSegments, segmentUsage } from './read-segments.js';
export {
  addStaticMembers,
  computeSegment,
  refreshSegment,
  removeStaticMembers,
} from './segment-members.js';
export { previewFilter } from './preview-filter.js';
