import { ExcelDemo } from '@/components/demo/ExcelDemo';

/** Excel export demo (merged); exceljs is imported only when exporting. */
export default function ExcelPage() {
  return <ExcelDemo mode="merged" />;
}
