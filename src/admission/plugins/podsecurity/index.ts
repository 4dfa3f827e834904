// PodSecurity: the plugin, its configuration and the checks.
export { podSecurityPlugin, extractPodSpec, isSignificantPodUpdate, AUDIT_ANNOTATION_PREFIX, type PodSecurityDeps } from './podsecurity.js';
export { parsePodSecurityConfiguration, DEFAULT_CONFIGURATION, ACCEPTED_API_VERSIONS, type PodSecurityConfiguration } from './config.js';
export { evaluatePod, forbiddenDetail, forbiddenReason, CHECKS } from './checks.js';
export { policyFromLabels, parseLevel, parseVersion, lvString, type Level, type LevelVersion, type Policy, type Version } from './levels.js';
