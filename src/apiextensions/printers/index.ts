// Printing custom resources: client-go's JSONPath and the Table convertor
// built from a CRD version's additionalPrinterColumns.
//
//   tableConvertor(columnsForVersion(version))  a src/printers Printer: give it
//        to buildTable / watchTableStream in place of printerFor(group, resource)
//   scaleColumnsForVersion(version)             the scale subresource's columns
//   parseJSONPath / findResults / executeTemplate / printValue   the JSONPath engine
//   validateSimpleJSONPath / columnJSONPathError                 checks for CRD validation
export { tableConvertor, columnsForVersion, scaleColumnsForVersion, cellFor, dateCell, NAME_DESCRIPTION, CREATION_TIMESTAMP_DESCRIPTION, type CustomResourcePrinter } from './convertor.js';
export { parseJSONPath, unquoteExtend, JSONPathParseError, type ListNode, type Node, type ParamsEntry } from './jsonpath.js';
export { executeTemplate, findResults, printValue, FloatLiteral, JSONPathEvalError, type EvalOptions } from './evaluate.js';
export { validateSimpleJSONPath, columnJSONPathError } from './validity.js';
