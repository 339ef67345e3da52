// Prints DKPro Statistics' unitizing alpha for the studies read from stdin, for
// tests/reference/unitizing/make_reference.py (see there how to compile and run it).
// Input: per study a line "study RATERS BEGIN LENGTH", then lines "RATER OFFSET LENGTH LABEL",
// then "end". Output: per study and category a line "D_o D_e alpha_c", then "overall alpha".
// With the argument "time" (benchmarks/bench_unitizing.py): per study the least of 3 runs of
// calculateAgreement in milliseconds, a line "ms MS".
package org.dkpro.statistics.agreement.unitizing;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.TreeSet;

public class DkproUnitizing
{
    public static void main(String[] args) throws Exception
    {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        UnitizingAnnotationStudy study = null;
        TreeSet<String> labels = new TreeSet<String>();
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split("\\s+");
            if (f[0].equals("study")) {
                study = new UnitizingAnnotationStudy(Integer.parseInt(f[1]),
                        Long.parseLong(f[2]), Long.parseLong(f[3]));
                labels.clear();
            }
            else if (f[0].equals("end")) {
                KrippendorffAlphaUnitizingAgreement alpha =
                        new KrippendorffAlphaUnitizingAgreement(study);
                if (args.length > 0 && args[0].equals("time")) {
                    long best = Long.MAX_VALUE;
                    double value = 0;
                    for (int run = 0; run < 3; run++) {
                        long t = System.nanoTime();
                        value = alpha.calculateAgreement();
                        best = Math.min(best, System.nanoTime() - t);
                    }
                    System.out.println("ms " + best / 1e6 + " " + value);
                    continue;
                }
                for (String c : labels) {
                    System.out.println("category " + c + " "
                            + alpha.calculateObservedCategoryDisagreement(c) + " "
                            + alpha.calculateExpectedCategoryDisagreement(c) + " "
                            + alpha.calculateCategoryAgreement(c));
                }
                System.out.println("overall " + alpha.calculateAgreement());
            }
            else {
                study.addUnit(Long.parseLong(f[1]), Long.parseLong(f[2]), Integer.parseInt(f[0]),
                        f[3]);
                labels.add(f[3]);
            }
        }
    }
}
