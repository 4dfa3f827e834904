// admissionregistration parity with the official documents (src/api/parity).
// v1.27 added webhook matchConditions (v1) and the policy's status, audit
// annotations, match conditions, messageExpression and binding
// validationActions (v1alpha1); v1.28 added variables and paramRef
// selector/parameterNotFoundAction, which v1.27 does not have.
import { parityTests } from '../parity/index.js';
import { kinds as v1 } from './v1/index.js';
import { kinds as v1alpha1 } from './v1alpha1/index.js';

const NEW_IN_127 = 'new in v1.27, so absent from the v1.26 document';
const NEW_IN_128 = 'new in v1.28 (ValidatingAdmissionPolicy composition and parameter selection); not in v1.27';

parityTests({
  group: 'admissionregistration.svc.io',
  versions: {
    v1: { package: 'io.k8s.api.admissionregistration.v1', kinds: v1 },
    v1alpha1: { package: 'io.k8s.api.admissionregistration.v1alpha1', kinds: v1alpha1 },
  },
  intended: {
    'v1.26.1 v1 MutatingWebhook matchConditions: extra: ours none, reference none': NEW_IN_127,
    'v1.26.1 v1 ValidatingWebhook matchConditions: extra: ours none, reference none': NEW_IN_127,
    'v1.26.1 v1 MatchCondition: absent': NEW_IN_127,
    'v1.26.1 v1alpha1 ValidatingAdmissionPolicy status: extra: ours none, reference none': NEW_IN_127,
    'v1.26.1 v1alpha1 ValidatingAdmissionPolicySpec (root): required: ours none, reference ["validations"]':
      'v1.27 made validations optional (auditAnnotations may stand instead), as v1.28 publishes',
    'v1.26.1 v1alpha1 ValidatingAdmissionPolicySpec auditAnnotations: extra: ours none, reference none': NEW_IN_127,
    'v1.26.1 v1alpha1 ValidatingAdmissionPolicySpec matchConditions: extra: ours none, reference none': NEW_IN_127,
    'v1.26.1 v1alpha1 Validation messageExpression: extra: ours none, reference none': NEW_IN_127,
    'v1.26.1 v1alpha1 AuditAnnotation: absent': NEW_IN_127,
    'v1.26.1 v1alpha1 MatchCondition: absent': NEW_IN_127,
    'v1.26.1 v1alpha1 ValidatingAdmissionPolicyStatus: absent': NEW_IN_127,
    'v1.26.1 v1alpha1 TypeChecking: absent': NEW_IN_127,
    'v1.26.1 v1alpha1 ExpressionWarning: absent': NEW_IN_127,
    'v1.26.1 v1alpha1 meta.v1.Condition: absent': 'used first by the v1.27 policy status',
    'v1.26.1 v1alpha1 ValidatingAdmissionPolicyBindingSpec validationActions: extra: ours none, reference none': NEW_IN_127,
    'v1.28.0 v1alpha1 ValidatingAdmissionPolicySpec variables: missing: ours none, reference none': NEW_IN_128,
    'v1.28.0 v1alpha1 ParamRef parameterNotFoundAction: missing: ours none, reference none': NEW_IN_128,
    'v1.28.0 v1alpha1 ParamRef selector: missing: ours none, reference none': NEW_IN_128,
  },
});
